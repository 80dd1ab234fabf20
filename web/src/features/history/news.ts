// What the synced copy tells the account feature (a change refused and undone, a token no
// longer valid), passed on to the handlers it connects. The account feature connects them as
// soon as it starts with a stored session, confirmed or not: a page loaded offline cannot
// confirm it, and its changes are refused only once the network is back, when nothing may
// have confirmed it yet. A refusal that comes before any handler is kept (a few) until one
// connects, rather than lost: the visitor must be told that a change was undone.

/** The account feature's side. */
export interface SessionHandlers {
  /** The token is no longer valid. */
  onExpired: () => void;
  /** The server refused a change for good, and it was undone: tell the visitor. */
  onRejected: (reason: string) => void;
}

/** How many refusals are kept for a handler not connected yet; more are only logged. */
export const keptRefusals = 10;

export interface SessionNews {
  /** From now on handlers hear the news, first the refusals kept until now. */
  connect(handlers: SessionHandlers): void;
  rejected(reason: string): void;
  expired(): void;
}

export function sessionNews(): SessionNews {
  let handlers: SessionHandlers | undefined;
  const unheard: string[] = [];
  return {
    connect(next) {
      handlers = next;
      for (const reason of unheard.splice(0)) next.onRejected(reason);
    },
    rejected(reason) {
      console.warn('A change to the history was refused by the server and undone:', reason);
      if (handlers) handlers.onRejected(reason);
      else if (unheard.length < keptRefusals) unheard.push(reason);
    },
    expired: () => handlers?.onExpired(),
  };
}
