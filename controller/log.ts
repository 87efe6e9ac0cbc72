/** One line per event, as text or JSON. Callers never pass a token or a secret. */
export type LogFormat = "text" | "json";
/** A log line's fields: plain values only (never a token or a secret); undefined ones are left out. */
export type Fields = Record<string, string | number | boolean | undefined>;

/** Where the controller writes its events: one line each, `info` or `error`. */
export interface Logger {
  info(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  /** True when nothing is written: callers may skip building the fields. */
  readonly quiet?: boolean;
}

/** The most log output held in memory while stdout is not being read. */
export const MAX_BUFFERED_LOG_BYTES = 1024 * 1024;

/**
 * A line writer to `stream` that never buffers more than `limit` bytes: when nobody reads stdout
 * (a pipe left unread), lines beyond it are dropped and counted, and the count is written as soon
 * as the stream takes output again.
 */
export function boundedWriter(
  stream: NodeJS.WritableStream & { writableLength: number } = process.stdout,
  limit = MAX_BUFFERED_LOG_BYTES,
): (line: string) => void {
  let dropped = 0;
  return (line) => {
    if (stream.writableLength > limit) {
      dropped++;
      return;
    }
    if (dropped > 0) {
      stream.write(`${dropped} log lines dropped: the log output was not being read\n`);
      dropped = 0;
    }
    stream.write(line + "\n");
  };
}

/** A logger writing one line per event (by default to stdout, bounded: see boundedWriter). */
export function createLogger(format: LogFormat, write: (line: string) => void = boundedWriter()): Logger {
  const emit = (level: string, msg: string, fields: Fields = {}) => {
    const time = new Date().toISOString();
    if (format === "json") {
      write(JSON.stringify({ time, level, msg, ...fields }));
    } else {
      const rest = Object.entries(fields)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${typeof v === "string" && /\s/.test(v) ? JSON.stringify(v) : v}`)
        .join(" ");
      write(`${time} [${level.toUpperCase()}] ${msg}${rest ? " " + rest : ""}`);
    }
  };
  return { info: (m, f) => emit("info", m, f), error: (m, f) => emit("error", m, f) };
}

/** `text` with control characters (C0, DEL, C1) escaped as \xNN, so data cannot drive a terminal. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it escapes
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** A logger that drops everything (tests and benchmarks). */
export const silentLogger: Logger = { info: () => {}, error: () => {}, quiet: true };
