/**
 * The first step of grpc-gateway's JSONPb decoder (runtime/marshal_jsonpb.go decodeJSONPb): Go's
 * `encoding/json` Decoder reads ONE value into a json.RawMessage. What follows that value is never
 * read (a body `{…} junk` decodes), an empty body is io.EOF (the gateway takes it as an empty
 * message), a body cut short is "unexpected EOF", and a syntax error is the scanner's own words
 * (encoding/json/scanner.go). Written from those rules, as a state machine: no recursion, so no
 * nesting depth can overflow the stack.
 */

/** What the Decoder read: nothing (io.EOF), one value's text, or the error it returned. */
export type GoJsonRead = { eof: true } | { eof: false; value: string } | { error: string };

const isSpace = (c: string) => c === " " || c === "\t" || c === "\r" || c === "\n";
const isDigit = (c: string) => c >= "0" && c <= "9";
const isHex = (c: string) => isDigit(c) || (c >= "a" && c <= "f") || (c >= "A" && c <= "F");

/** Go's quoteChar: `'x'`, with Go's escapes for what is not printable. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const code = c.codePointAt(0)!;
  const escapes: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f", "\v": "\\v", "\x07": "\\a", "\\": "\\\\" };
  if (escapes[c]) return `'${escapes[c]}'`;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, "0")}'`;
  return `'${c}'`;
}

type Step = (c: string) => "continue" | "end" | string;

/**
 * Reads the first JSON value of `text` as Go's json.Decoder does. A number or literal at the top
 * level ends at the first byte that cannot continue it (Go's scanner answers scanEnd there).
 */
export function readGoJson(text: string): GoJsonRead {
  let i = 0;
  while (i < text.length && isSpace(text[i]!)) i++;
  if (i === text.length) return { eof: true };
  const start = i;
  // the parse stack: "{" object key, ":" object value, "[" array element
  const stack: ("key" | "value" | "array")[] = [];
  let step: Step;
  let literal = "";
  const err = (c: string, context: string) => `invalid character ${quoteChar(c)} ${context}`;

  const endValue: Step = (c) => {
    const top = stack[stack.length - 1];
    if (top === undefined) return "end";
    if (isSpace(c)) return "continue";
    if (top === "key") {
      if (c === ":") {
        stack[stack.length - 1] = "value";
        step = beginValue;
        return "continue";
      }
      return err(c, "after object key");
    }
    if (top === "value") {
      if (c === ",") {
        stack[stack.length - 1] = "key";
        step = beginString;
        return "continue";
      }
      if (c === "}") return close();
      return err(c, "after object key:value pair");
    }
    if (c === ",") {
      step = beginValue;
      return "continue";
    }
    if (c === "]") return close();
    return err(c, "after array element");
  };
  const close = (): "continue" | "end" => {
    stack.pop();
    step = endValue;
    return stack.length === 0 ? "end" : "continue";
  };
  const inString: Step = (c) => {
    if (c === '"') {
      step = endValue;
      return stack.length === 0 ? "end" : "continue";
    }
    if (c === "\\") {
      step = inEscape;
      return "continue";
    }
    if (c < " ") return err(c, "in string literal");
    return "continue";
  };
  let hexLeft = 0;
  const inEscape: Step = (c) => {
    if ('bfnrt\\/"'.includes(c)) {
      step = inString;
      return "continue";
    }
    if (c === "u") {
      hexLeft = 4;
      step = inHex;
      return "continue";
    }
    return err(c, "in string escape code");
  };
  const inHex: Step = (c) => {
    if (!isHex(c)) return err(c, "in \\u hexadecimal character escape");
    if (--hexLeft === 0) step = inString;
    return "continue";
  };
  const beginString: Step = (c) => {
    if (isSpace(c)) return "continue";
    if (c === '"') {
      step = inString;
      return "continue";
    }
    return err(c, "looking for beginning of object key string");
  };
  const beginKeyOrEnd: Step = (c) => {
    if (c === "}") return close();
    return beginString(c);
  };
  const beginValueOrEnd: Step = (c) => {
    if (c === "]") return close();
    return beginValue(c);
  };
  // numbers: Go's states neg, 0, 1, dot, dot0, E, ESign, E0
  let number: "neg" | "zero" | "int" | "dot" | "frac" | "e" | "esign" | "exp" = "int";
  const inNumber: Step = (c) => {
    switch (number) {
      case "neg":
        if (c === "0") number = "zero";
        else if (c >= "1" && c <= "9") number = "int";
        else return err(c, "in numeric literal");
        return "continue";
      case "int":
      case "zero":
        if (number === "int" && isDigit(c)) return "continue";
        if (c === ".") number = "dot";
        else if (c === "e" || c === "E") number = "e";
        else return afterScalar(c);
        return "continue";
      case "dot":
        if (!isDigit(c)) return err(c, "after decimal point in numeric literal");
        number = "frac";
        return "continue";
      case "frac":
        if (isDigit(c)) return "continue";
        if (c === "e" || c === "E") number = "e";
        else return afterScalar(c);
        return "continue";
      case "e":
        if (c === "+" || c === "-") number = "esign";
        else if (isDigit(c)) number = "exp";
        else return err(c, "in exponent of numeric literal");
        return "continue";
      case "esign":
        if (!isDigit(c)) return err(c, "in exponent of numeric literal");
        number = "exp";
        return "continue";
      case "exp":
        if (isDigit(c)) return "continue";
        return afterScalar(c);
    }
  };
  let literalAt = 0;
  const inLiteral: Step = (c) => {
    const want = literal[literalAt]!;
    if (c !== want) return err(c, `in literal ${literal} (expecting ${quoteChar(want)})`);
    literalAt++;
    if (literalAt === literal.length) {
      step = endValue;
      // a top-level literal ends where the next byte cannot continue it
      return "continue";
    }
    return "continue";
  };
  /** The byte after a number: the value ended; the byte is the next state's. */
  const afterScalar = (c: string): "continue" | "end" | string => {
    step = endValue;
    return endValue(c);
  };
  const beginValue: Step = (c) => {
    if (isSpace(c)) return "continue";
    switch (c) {
      case "{":
        stack.push("key");
        step = beginKeyOrEnd;
        return "continue";
      case "[":
        stack.push("array");
        step = beginValueOrEnd;
        return "continue";
      case '"':
        step = inString;
        return "continue";
      case "-":
        number = "neg";
        step = inNumber;
        return "continue";
      case "t":
      case "f":
      case "n":
        literal = c === "t" ? "true" : c === "f" ? "false" : "null";
        literalAt = 1;
        step = inLiteral;
        return "continue";
    }
    if (isDigit(c)) {
      number = c === "0" ? "zero" : "int";
      step = inNumber;
      return "continue";
    }
    return err(c, "looking for beginning of value");
  };

  step = beginValue;
  const scalar = !'{["'.includes(text[start]!);
  for (; i < text.length; i++) {
    const c = text[i]!;
    const r = step(c);
    if (r === "continue") continue;
    // a number or literal at the top level ends before the byte that ended it; a string, object or array with its last byte
    if (r === "end") return { eof: false, value: text.slice(start, scalar ? i : i + 1) };
    return { error: r };
  }
  // at the end of the body: a top-level number or literal that is complete ends there; anything else was cut short
  const complete =
    stack.length === 0 && (step === endValue || (step === inNumber && (number === "int" || number === "zero" || number === "frac" || number === "exp")));
  if (complete) return { eof: false, value: text.slice(start) };
  return { error: "unexpected EOF" };
}
