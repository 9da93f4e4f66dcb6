/**
 * Opaque cursors: AES-GCM over a small JSON position. Readers see random bytes; any change
 * fails authentication, and the payload binds the organization and the exact query, so a
 * cursor cannot be replayed elsewhere. Web Crypto only, so this also runs in workerd.
 */
export type CursorPosition = {
  /** Organization the cursor was issued to. */
  org: string;
  /** Endpoint, path id and filters of the query that issued it. */
  query: string;
  /** Sort key (epoch ms) and id of the last item served. */
  t: number;
  id: string | number;
  /** The resolved time window, so later pages use the window of the first. */
  window?: [number, number];
};

export type CursorCodec = {
  encode(position: CursorPosition): Promise<string>;
  decode(token: string): Promise<CursorPosition | null>;
};

export function createCursorCodec(
  secret: Uint8Array = crypto.getRandomValues(new Uint8Array(32)),
): CursorCodec {
  const key = crypto.subtle.importKey("raw", secret as BufferSource, "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  return {
    async encode(position) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const plain = new TextEncoder().encode(JSON.stringify(position));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await key, plain));
      const out = new Uint8Array(iv.length + sealed.length);
      out.set(iv);
      out.set(sealed, iv.length);
      return toBase64Url(out);
    },
    async decode(token) {
      const bytes = fromBase64Url(token);
      if (!bytes || bytes.length < 12 + 16 + 2) return null;
      try {
        const plain = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv: bytes.slice(0, 12) },
          await key,
          bytes.slice(12),
        );
        const value = JSON.parse(new TextDecoder().decode(plain)) as CursorPosition;
        return typeof value.org === "string" && typeof value.query === "string" && typeof value.t === "number"
          ? value
          : null;
      } catch {
        return null;
      }
    },
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(token: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return null;
  try {
    const s = atob(token.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(s, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}
