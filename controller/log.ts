/**
 * The controller's log: one line per event, as text or JSON, at Boundary's levels. Callers never
 * pass a token or a secret. Lines are written off the request path: they gather in memory and go
 * out in one write per turn of the event loop (stdout to a pipe or a file is a synchronous write
 * in Node, one system call per line if written as they come).
 */
export type LogFormat = "text" | "json";
/** A log line's fields: plain values only (never a token or a secret); undefined ones are left out. */
export type Fields = Record<string, string | number | boolean | undefined>;

/** Boundary's log levels (`-log-level`), least to most severe. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "err"] as const;
/** One of Boundary's log levels. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where the controller writes its events: one line each. */
export interface Logger {
  /** Per-request lines (`--log-level debug`); Boundary writes none by default. */
  debug?(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  /** True when nothing is written: callers may skip building the fields. */
  readonly quiet?: boolean;
  /** True when `debug` lines are written (callers may skip building them otherwise). */
  readonly debugEnabled?: boolean;
  /** Writes out every line gathered so far (before the process exits). */
  flush?(): void;
}

/** A writer of lines; `flush` writes out what it holds. */
export interface LineWriter {
  (line: string): void;
  flush(): void;
}

/** The most log output held in memory while stdout is not being read. */
export const MAX_BUFFERED_LOG_BYTES = 1024 * 1024;
/** Gathered lines are written at once beyond this size, without waiting for the loop to turn. */
const BATCH_BYTES = 64 * 1024;

/**
 * A line writer to `stream` that gathers lines and writes them in one call per turn of the event
 * loop (or once BATCH_BYTES are gathered), and never holds more than `limit` bytes: when nobody
 * reads stdout (a pipe left unread), lines beyond it are dropped and counted, and the count is
 * written as soon as the stream takes output again.
 */
export function bufferedWriter(stream: NodeJS.WritableStream & { writableLength: number } = process.stdout, limit = MAX_BUFFERED_LOG_BYTES): LineWriter {
  let pending: string[] = [];
  let pendingBytes = 0;
  let dropped = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    pendingBytes = 0;
    stream.write(text);
  };
  const write = (line: string) => {
    if (stream.writableLength + pendingBytes > limit) {
      dropped++;
      return;
    }
    if (dropped > 0) {
      pending.push(`${dropped} log lines dropped: the log output was not being read\n`);
      dropped = 0;
    }
    pending.push(line + "\n");
    pendingBytes += line.length + 1;
    if (pendingBytes >= BATCH_BYTES) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return Object.assign(write, { flush });
}

/**
 * A logger writing one line per event at `level` and above (by default to stdout, buffered and
 * bounded: see bufferedWriter). `info` lines are Boundary's info, `error` its err, `debug` its debug.
 */
export function createLogger(format: LogFormat, write: ((line: string) => void) & { flush?: () => void } = bufferedWriter(), level: LogLevel = "info"): Logger {
  const rank = (l: LogLevel) => LOG_LEVELS.indexOf(l);
  const emit = (l: LogLevel, msg: string, fields: Fields = {}) => {
    const lineLevel = l === "err" ? "error" : l; // as hclog writes it
    const time = new Date().toISOString();
    if (format === "json") {
      write(JSON.stringify({ time, level: lineLevel, msg, ...fields }));
    } else {
      const rest = Object.entries(fields)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${typeof v === "string" && /\s/.test(v) ? JSON.stringify(v) : v}`)
        .join(" ");
      write(`${time} [${lineLevel.toUpperCase()}] ${msg}${rest ? " " + rest : ""}`);
    }
  };
  const at = (l: LogLevel) => (rank(l) >= rank(level) ? (m: string, f?: Fields) => emit(l, m, f) : () => {});
  return {
    debug: at("debug"),
    info: at("info"),
    error: at("err"),
    debugEnabled: rank("debug") >= rank(level),
    quiet: rank("err") < rank(level),
    flush: () => write.flush?.(),
  };
}

/**
 * The logger the API's request chain writes to: its one line per request is a `debug` line
 * (Boundary writes none by default), its failures `error` lines; `quiet` when debug is off, so the
 * chain skips timing and building the line.
 */
export function requestLogger(logger: Logger): Logger {
  const debug = logger.debugEnabled && logger.debug ? logger.debug : undefined;
  return { info: debug ?? (() => {}), error: logger.error, quiet: !debug };
}

/** `text` with control characters (C0, DEL, C1) escaped as \xNN, so data cannot drive a terminal. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it escapes
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** A logger that drops everything (tests and benchmarks). */
export const silentLogger: Logger = { info: () => {}, error: () => {}, quiet: true };
