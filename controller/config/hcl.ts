/**
 * The part of HCL that Boundary's configuration files use: attributes (`key = value`) and blocks
 * with labels (`listener "tcp" { … }`), string/number/bool/list values, `#`, `//` and `/* *\/`
 * comments. Boundary's JSON config form maps onto the same Block model (`fromJson`).
 * (No maintained HCL parser on npm runs without a Go/WASM blob; this subset is ~100 lines.)
 */

/** An attribute's value: a string, number, bool, or a list of them. */
export type Value = string | number | boolean | Value[];
/**
 * A block (`listener "tcp" { … }`, or the whole file as the root): its type, labels, attributes and
 * nested blocks, with the line each starts on (1-based; 0 when unknown) so mistakes can name it.
 */
export interface Block {
  type: string;
  labels: string[];
  attrs: Record<string, Value>;
  blocks: Block[];
  line: number;
  /** The line of each attribute. */
  lines: Record<string, number>;
}

import { ConfigSyntaxError } from "../errors";
export { ConfigSyntaxError } from "../errors";

/** A token; `word` is an unquoted word that is neither a number nor an identifier (`127.0.0.1:9200`, `10s`). */
type Tok = { t: "ident" | "str" | "num" | "punct" | "word"; v: string; line: number };

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  let line = 1;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "\n") {
      line++;
      i++;
    } else if (/\s/.test(c) || c === ",") {
      i++;
    } else if (c === "#" || src.startsWith("//", i)) {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (src.startsWith("/*", i)) {
      const end = src.indexOf("*/", i + 2);
      if (end < 0) throw new ConfigSyntaxError(`line ${line}: unterminated comment`);
      line += src.slice(i, end).split("\n").length - 1;
      i = end + 2;
    } else if (c === '"') {
      let v = "";
      i++;
      while (i < src.length && src[i] !== '"') {
        if (src[i] === "\n") throw new ConfigSyntaxError(`line ${line}: unterminated string`);
        if (src[i] === "\\") {
          i++;
          const e = src[i];
          v += e === "n" ? "\n" : e === "t" ? "\t" : e;
        } else v += src[i];
        i++;
      }
      if (i >= src.length) throw new ConfigSyntaxError(`line ${line}: unterminated string`);
      i++;
      out.push({ t: "str", v, line });
    } else if (/[^\s{}[\]=,"#]/.test(c) && !src.startsWith("//", i) && !src.startsWith("/*", i)) {
      // the whole word, so an unquoted value (`10s`, `127.0.0.1:9200`) is one token on its own line
      const v = /^(?:[^\s{}[\]=,"#/]|\/(?![/*]))+/.exec(src.slice(i))![0];
      out.push({ t: /^-?\d+(\.\d+)?$/.test(v) ? "num" : /^[A-Za-z_][A-Za-z0-9_-]*$/.test(v) ? "ident" : "word", v, line });
      i += v.length;
    } else if ("{}[]=".includes(c)) {
      out.push({ t: "punct", v: c, line });
      i++;
    } else {
      throw new ConfigSyntaxError(`line ${line}: unexpected ${JSON.stringify(c)}`);
    }
  }
  return out;
}

/** Parses HCL text into the root block (type "" with no labels). */
/** The deepest nesting of blocks and lists a config file may have (Boundary's use a few levels). */
export const MAX_CONFIG_NESTING = 32;

/** Parses a config file into its root Block; throws ConfigSyntaxError naming the line. */
export function parseHcl(src: string): Block {
  const toks = lex(src);
  let p = 0;
  let depth = 0;
  const deeper = (tok: Tok) => {
    if (++depth > MAX_CONFIG_NESTING) throw new ConfigSyntaxError(`line ${tok.line}: nested more than ${MAX_CONFIG_NESTING} levels deep`);
  };
  const at = () => toks[p];
  const expect = (v: string) => {
    const tok = toks[p];
    if (tok?.t !== "punct" || tok.v !== v) {
      throw new ConfigSyntaxError(`line ${tok?.line ?? "end"}: expected ${JSON.stringify(v)}${tok ? `, found ${JSON.stringify(tok.v)}` : ""}`);
    }
    p++;
  };
  const value = (key: string): Value => {
    const tok = toks[p++];
    if (!tok) throw new ConfigSyntaxError(`unexpected end of file, expected the value of ${key}`);
    if (tok.t === "str") return tok.v;
    if (tok.t === "num") return Number(tok.v);
    if (tok.t === "ident" && (tok.v === "true" || tok.v === "false")) return tok.v === "true";
    if (tok.t === "punct" && tok.v === "[") {
      deeper(tok);
      const list: Value[] = [];
      while (!(at()?.t === "punct" && at()!.v === "]")) list.push(value(key));
      p++;
      depth--;
      return list;
    }
    if (tok.t === "ident" || tok.t === "word")
      throw new ConfigSyntaxError(`line ${tok.line}: the value of ${key} must be quoted: ${key} = ${JSON.stringify(tok.v)}`);
    throw new ConfigSyntaxError(`line ${tok.line}: expected the value of ${key}, found ${JSON.stringify(tok.v)}`);
  };
  const body = (block: Block, closing: boolean) => {
    while (p < toks.length) {
      const tok = toks[p]!;
      if (closing && tok.t === "punct" && tok.v === "}") {
        p++;
        return;
      }
      if (tok.t !== "ident" && tok.t !== "str") throw new ConfigSyntaxError(`line ${tok.line}: expected a key or block, found ${JSON.stringify(tok.v)}`);
      p++;
      if (at()?.t === "punct" && at()!.v === "=") {
        p++;
        block.attrs[tok.v] = value(tok.v);
        block.lines[tok.v] = tok.line;
        continue;
      }
      const child: Block = { type: tok.v, labels: [], attrs: {}, blocks: [], line: tok.line, lines: {} };
      while (at()?.t === "str" || at()?.t === "ident") child.labels.push(toks[p++]!.v);
      deeper(tok);
      expect("{");
      body(child, true);
      depth--;
      block.blocks.push(child);
    }
    if (closing) throw new ConfigSyntaxError('unexpected end of file, expected "}"');
  };
  const root: Block = { type: "", labels: [], attrs: {}, blocks: [], line: 1, lines: {} };
  body(root, false);
  return root;
}

/**
 * Refuses JSON nested more than MAX_CONFIG_NESTING levels before it is parsed (a parser or a walker
 * of such a document would run out of stack), naming the line where it goes too deep.
 */
export function checkJsonNesting(text: string): void {
  let depth = 0;
  let line = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    else if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      if (++depth > MAX_CONFIG_NESTING) throw new ConfigSyntaxError(`line ${line}: nested more than ${MAX_CONFIG_NESTING} levels deep`);
    } else if (c === "]" || c === "}") depth--;
  }
}

/**
 * Boundary's JSON form: `{"controller": {…}, "listener": [{"tcp": {…}}]}` or
 * `{"listener": {"tcp": [{…}, {…}]}}`. Objects under a block key are blocks; labels are the keys
 * between the block type and the body. With the document's `text`, each key gets the line where it
 * is written (keys are found in document order, which JSON.parse keeps for non-numeric keys).
 */
export function fromJson(doc: unknown, text = ""): Block {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new ConfigSyntaxError("the JSON configuration must be an object");
  let at = 0;
  const lineOf = (key: string): number => {
    const found = text.indexOf(JSON.stringify(key), at);
    if (found < 0) return 0;
    at = found + 1;
    return text.slice(0, found).split("\n").length;
  };
  const root: Block = { type: "", labels: [], attrs: {}, blocks: [], line: 1, lines: {} };
  const addBlocks = (parent: Block, type: string, labels: string[], v: unknown, line: number): void => {
    if (Array.isArray(v)) {
      for (const item of v) addBlocks(parent, type, labels, item, line);
      return;
    }
    const obj = v as Record<string, unknown>;
    if (BLOCK_TYPES_WITH_LABEL.has(type) && labels.length === 0) {
      for (const [label, inner] of Object.entries(obj)) addBlocks(parent, type, [label], inner, lineOf(label) || line);
      return;
    }
    const block: Block = { type, labels, attrs: {}, blocks: [], line, lines: {} };
    fill(block, obj);
    parent.blocks.push(block);
  };
  // at the root an array holds blocks (`"listener": [{…}]`); inside a block it is a list value
  const fill = (block: Block, obj: object) => {
    for (const [k, inner] of Object.entries(obj)) {
      const line = lineOf(k);
      if (inner !== null && typeof inner === "object" && (block === root || !Array.isArray(inner))) addBlocks(block, k, [], inner, line);
      else {
        block.attrs[k] = inner as Value;
        block.lines[k] = line;
      }
    }
  };
  fill(root, doc);
  return root;
}

const BLOCK_TYPES_WITH_LABEL = new Set(["listener", "kms", "worker_auth_storage"]);
