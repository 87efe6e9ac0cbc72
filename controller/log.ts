/** One line per event, as text or JSON. Callers never pass a token or a secret. */
export type LogFormat = "text" | "json";
export type Fields = Record<string, string | number | boolean | undefined>;

export interface Logger {
  info(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
}

export function createLogger(format: LogFormat, write: (line: string) => void = (l) => process.stdout.write(l + "\n")): Logger {
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

/** A logger that drops everything (tests and benchmarks). */
export const silentLogger: Logger = { info: () => {}, error: () => {} };
