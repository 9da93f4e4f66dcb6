/**
 * Secrets at rest (bot and refresh tokens, Decipher keys): AES-GCM with a 256-bit key from a
 * Worker secret (ENCRYPTION_KEY) and a fresh random 96-bit IV per value. The stored form is
 * `v1.<iv>.<ciphertext>` in base64url; `aad` binds a value to where it belongs (the team and
 * the field), so a ciphertext copied to another team's record does not decrypt.
 */

const VERSION = "v1";
const keys = new Map<string, Promise<CryptoKey>>();

function toBase64Url(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(plain.length);
  for (let i = 0; i < plain.length; i++) out[i] = plain.charCodeAt(i);
  return out;
}

function importKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", fromBase64(secret), "AES-GCM", false, ["encrypt", "decrypt"]);
    keys.set(secret, key);
  }
  return key;
}

const encoder = new TextEncoder();

export async function seal(secret: string, plain: string, aad: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(aad) },
    await importKey(secret),
    encoder.encode(plain),
  );
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

/** Throws when the value was altered, sealed for another place, or sealed with another key. */
export async function open(secret: string, stored: string, aad: string): Promise<string> {
  const [version, iv, data] = stored.split(".");
  if (version !== VERSION || !iv || !data) throw new Error("not a sealed value");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(iv), additionalData: encoder.encode(aad) },
    await importKey(secret),
    fromBase64(data),
  );
  return new TextDecoder().decode(plain);
}
