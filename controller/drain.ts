/**
 * How a listener lets go of its connections at shutdown without resetting a request already on the
 * wire. Two moments are racy in HTTP/1.1 keep-alive: closing the listening socket resets every
 * connection still in the kernel's accept queue, and closing an idle connection resets a request
 * the client sent just before it saw the close. Fixed timers lose both races when the machine is
 * loaded (the client's next request, or its reconnect, arrives later than the timer guessed), so
 * each wait here is measured against what the connections actually do, with a deadline.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as TlsServer } from "node:https";
import * as net from "node:net";
import { sleep } from "../common/sleep";

/** How often the waits below look again. */
const TICK_MS = 20;

/**
 * Waits a tick, then lets the event loop's poll phase run once more, so any connection or request
 * that arrived meanwhile has been seen (timers run before I/O: a timer alone may fire on a loaded
 * loop before the data that would change its mind is read). Returns how late the tick was.
 */
async function tick(): Promise<number> {
  const start = Date.now();
  await sleep(TICK_MS);
  await new Promise((resolve) => setImmediate(resolve));
  return Date.now() - start - TICK_MS;
}

/** One connection: how many requests are in flight on it, and when it last finished one (or was accepted). */
interface Use {
  inFlight: number;
  idleSince: number;
}

/** Where a connection's use is kept on its socket. */
const USE = Symbol("drain.use");
/** A socket with its use (see Drain). */
type Watched = net.Socket & { [USE]?: Use };

/**
 * Watches one listener's connections from the moment it is made: when the last one was accepted,
 * and for each whether a request is in flight and since when it has been idle (the listener's
 * request handler calls `request` for every request).
 */
export class Drain {
  private readonly uses = new Map<net.Socket, Use>();
  /** Every TCP connection, TLS handshake done or not: the deadline cuts them all. */
  private readonly sockets = new Set<net.Socket>();
  private lastAccepted = 0;

  /** Starts watching `server` (before it listens, so no connection is missed). */
  constructor(private readonly server: Server | TlsServer) {
    server.on("connection", (socket: net.Socket) => {
      this.lastAccepted = Date.now();
      this.sockets.add(socket);
      socket.once("close", () => this.sockets.delete(socket));
    });
    // the socket a request arrives on: the TLS socket for HTTPS, the TCP one for HTTP
    server.on(server instanceof TlsServer ? "secureConnection" : "connection", (socket: Watched) => {
      const use = { inFlight: 0, idleSince: Date.now() };
      socket[USE] = use;
      this.uses.set(socket, use);
      socket.once("close", () => this.uses.delete(socket));
    });
  }

  /**
   * Counts a request in flight on its connection until its answer closes. The listener's own request
   * handler calls it first (not a second `request` listener: Node copies the listener array of an
   * event with several on every emit), and the connection's count is a property of its socket (no
   * lookup), so the watch costs each request one listener and no more.
   */
  request(req: IncomingMessage, res: ServerResponse): void {
    const use = (req.socket as Watched)[USE];
    if (!use) return;
    use.inFlight++;
    res.on("close", () => {
      use.inFlight--;
      use.idleSince = Date.now();
    });
  }

  /**
   * Counts a request in flight on its connection until `answered(req)`: for a handler that knows
   * when it has handed its whole answer to Node (the API chain). No listener per answer: a `close`
   * listener and its closure were a tenth of the controller's CPU per GET. An answer handed over
   * may still sit in the socket's buffer; `close` waits for that (see `idle`).
   */
  started(req: IncomingMessage): void {
    const use = (req.socket as Watched)[USE];
    if (use) use.inFlight++;
  }

  /** The answer to a request counted by `started` has been handed to Node whole (`res.end` called). */
  answered(req: IncomingMessage): void {
    const use = (req.socket as Watched)[USE];
    if (!use) return;
    use.inFlight--;
    use.idleSince = Date.now();
  }

  /**
   * Resolves once no connection has been accepted for `quietMs` (the accept queue is empty: clients
   * have stopped reconnecting), or after `deadlineMs` whatever the clients do.
   */
  async acceptsQuiet(quietMs: number, deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    let quietSince = Math.max(this.lastAccepted, Date.now() - quietMs);
    while (Date.now() < deadline) {
      // a late tick means the loop was busy: a connection may wait in the queue unseen
      if ((await tick()) > TICK_MS) quietSince = Date.now();
      quietSince = Math.max(quietSince, this.lastAccepted);
      if (Date.now() - quietSince >= quietMs) return;
    }
  }

  /**
   * Closes the listening socket, then each connection once it has no request in flight and has been
   * idle for `idleMs` (a client still sending sends again sooner; one that has stopped is let go);
   * after `deadlineMs` every connection left is cut. Resolves when the listener is closed.
   */
  async close(idleMs: number, deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    let closed = false;
    // not http.Server.close(): it destroys at once every connection it thinks idle, including one
    // whose request is on the wire but not yet parsed
    const done = new Promise<void>((resolve) => net.Server.prototype.close.call(this.server, () => resolve()));
    void done.then(() => (closed = true));
    while (!closed) {
      await tick();
      if (closed) break;
      if (Date.now() >= deadline) {
        // closeAllConnections() knows only connections that reached HTTP: not a TLS handshake in progress
        this.server.closeAllConnections();
        for (const socket of this.sockets) socket.destroy();
        break;
      }
      const now = Date.now();
      for (const [socket, use] of this.uses) if (idle(socket, use, now, idleMs)) socket.destroy();
    }
    await done;
  }
}

/**
 * No request in flight on the connection, none for `idleMs`, and nothing of an answer left in its
 * socket's buffer (an answer handed over whole may still be on its way to a slow client).
 */
function idle(socket: net.Socket, use: Use, now: number, idleMs: number): boolean {
  return use.inFlight === 0 && now - use.idleSince >= idleMs && socket.writableLength === 0;
}
