/**
 * The root of every error this package throws, on both sides of the wire. Each class has a fixed
 * `code` (`BOUNDARY_…`); an instance carries the codes of its whole class chain under a global
 * symbol, and `instanceof` checks that brand instead of the prototype chain. So `instanceof` stays
 * true across two loaded copies of the package (the program's and the provider host's), and a
 * rename of a class never changes what code a caller matches on.
 */

const CODES = Symbol.for("pulumi-boundary.error-codes");

/** Base of the hierarchy. Subclasses declare `static readonly code`; `name` is the class name. */
export class PulumiBoundaryError extends Error {
  /** The code every instance of this class carries. */
  static readonly code: string = "BOUNDARY_ERROR";
  /** Stable machine-readable code, e.g. `BOUNDARY_API_ERROR`. */
  readonly code: string;
  declare readonly [CODES]: readonly string[];

  /**
   * An error with `message` (and the standard `cause`). Its `code` is the code of the class it was made
   * with; the codes of that class and every ancestor up to this one are recorded for `instanceof`.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const codes: string[] = [];
    // Walks the constructors from the class made up to (not including) Error: each one's static `code`.
    for (let c: { code?: string } | null = new.target; c && c !== Error; c = Object.getPrototypeOf(c)) {
      if (c.code) codes.push(c.code);
    }
    Object.defineProperty(this, CODES, { value: codes });
    this.code = codes[0]!;
    this.name = new.target.name;
  }

  /** True when `x` was made by this class or a subclass, in any loaded copy of the package. */
  static override [Symbol.hasInstance](x: unknown): boolean {
    const codes = (x as { [CODES]?: unknown } | null | undefined)?.[CODES];
    return Array.isArray(codes) && codes.includes(this.code);
  }
}

/**
 * A duration (a config key, BOUNDARY_CLIENT_TIMEOUT, a customTimeout) that is not Go's syntax or is
 * negative; the message names the key and the value. Shared: both sides parse durations.
 */
export class InvalidDurationError extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_INVALID_DURATION";
}

/** A release key the release table does not have; the message names it. Shared: both sides read the table. */
export class UnknownReleaseError extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_UNKNOWN_RELEASE";
}

/**
 * Something that cannot happen did: a bug of this package, not a mistake of the user or an answer
 * of the controller. Shared by both sides, so each catalogue lists the one class.
 */
export class InternalError extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_INTERNAL";
}
