/**
 * slack-edge hands the ack and the lazy listener the same request object: `perRequest(fn)`
 * computes `fn(req)` once for both (parsing a command's text once, not twice).
 */
export function perRequest<R extends object, T>(fn: (req: R) => T): (req: R) => T {
  const seen = new WeakMap<R, T>();
  return (req) => {
    if (seen.has(req)) return seen.get(req) as T;
    const value = fn(req);
    seen.set(req, value);
    return value;
  };
}
