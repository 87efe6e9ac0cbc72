import js from "@eslint/js";
import tseslint from "typescript-eslint";
import jsdoc from "eslint-plugin-jsdoc";
import prettier from "eslint-config-prettier";

/** Node's globals the plain-JavaScript files (build script, jest config and reporter) use: they run under Node as CommonJS. */
const nodeCommonJs = {
  require: "readonly",
  module: "writable",
  exports: "writable",
  __dirname: "readonly",
  __filename: "readonly",
  process: "readonly",
  console: "readonly",
};

/** The package's source (what it ships), held to the error rules below. */
const SOURCES = ["cli/**/*.ts", "common/**/*.ts", "wire/**/*.ts", "provider/**/*.ts", "controller/**/*.ts", "policy/**/*.ts"];
/** Where error classes are defined: the catalogues (see docs/architecture.md, Errors), and the Node version guard. */
const CATALOGUES = [
  "common/errors.ts",
  "common/filter.ts",
  "controller/errors.ts",
  "provider/errors.ts",
  "provider/*/errors.ts",
  "provider/node-version.ts",
  "policy/errors.ts",
];
/** A built-in error made outside the catalogues: it has no code, and callers cannot tell it from a bug. */
const BUILT_IN_ERRORS = ["NewExpression", "CallExpression"].map((node) => ({
  selector: `${node}[callee.name=/^(Aggregate|Eval|Range|Reference|Syntax|Type|URI)?Error$/]`,
  message: "Errors only from the catalogues: throw a class of provider/errors.ts, controller/errors.ts or common/errors.ts.",
}));
/** A cast through unknown says nothing the checker can hold to: type the value instead. */
const AS_UNKNOWN_AS = {
  selector: "TSAsExpression > TSAsExpression.expression[typeAnnotation.type='TSUnknownKeyword']",
  message: "No `as unknown as`: type the value (a guard, `in`, a typed helper).",
};

export default tseslint.config(
  // examples/basic/node_modules is the example's own install (it links the package); dist/ is build output.
  { ignores: ["dist/", "node_modules/", "coverage/", "examples/basic/node_modules/", ".pulumi-state/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // `const { secret, ...rest } = x` is how this code leaves keys out of a copy: the named key is the point, not
    // an oversight (tsc's noUnusedLocals reads it the same way).
    rules: { "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }] },
  },
  {
    files: ["**/*.ts"],
    plugins: { jsdoc },
    rules: {
      // Every exported member states its contract. publicOnly: only what a module exports (tests export helpers,
      // not test cases). Methods include getters, statics and constructors of exported classes, not private or
      // protected ones; abstract methods and public arrow-function properties are methods too.
      "jsdoc/require-jsdoc": [
        "error",
        {
          publicOnly: true,
          require: { FunctionDeclaration: true, ClassDeclaration: true, MethodDefinition: true, ArrowFunctionExpression: false },
          contexts: [
            "TSInterfaceDeclaration",
            "TSTypeAliasDeclaration",
            "TSEnumDeclaration",
            "ExportNamedDeclaration > VariableDeclaration",
            "TSAbstractMethodDefinition",
            "PropertyDefinition[value.type=/FunctionExpression$/]",
          ],
        },
      ],
    },
  },
  {
    // Errors only from the catalogues: the source throws nothing but errors (a thrown page or string has no code
    // and no stack), and builds no built-in error (`new Error`, `new TypeError`, ...) outside the catalogues,
    // whose classes carry a code. `only-throw-error` needs the types, so these files are linted with them.
    files: SOURCES,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/only-throw-error": "error",
      "no-restricted-syntax": ["error", AS_UNKNOWN_AS, ...BUILT_IN_ERRORS],
    },
  },
  {
    // the catalogues themselves, and the Node version guard (loaded before the rest, so before the catalogues)
    files: CATALOGUES,
    rules: { "no-restricted-syntax": ["error", AS_UNKNOWN_AS] },
  },
  {
    // The build script, jest's config and its reporter are CommonJS run by Node: linted as such, not skipped.
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: nodeCommonJs },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  prettier,
  {
    // Prettier keeps code within printWidth but cannot split a comment or a long string, so this one rule comes
    // after eslint-config-prettier (which turns it off), as its README documents, at Prettier's width: what
    // Prettier cannot wrap, a person splits. Only URLs and regular expressions, which cannot be split, are let be.
    rules: {
      "max-len": ["error", { code: 160, ignoreRegExpLiterals: true, ignoreUrls: true }],
    },
  },
  {
    // A test's title and the exact message it expects stay whole: one line is what a failing run prints and
    // what a search for the message finds. Code and comments in tests still keep to the width.
    files: ["test/**/*.ts"],
    rules: {
      "max-len": ["error", { code: 160, ignoreRegExpLiterals: true, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true }],
    },
  },
);
