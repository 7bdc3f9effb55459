// The contract's limits the page holds texts to, mirrored from Rust: `kenning stats --json`
// reports them as `limits`, and test/policy-worker.test.mjs checks this copy against it.

/**
 * Largest memory text `remember` accepts, in UTF-8 bytes: kenning_contract::MAX_TEXT_BYTES
 * (contract/src/lib.rs).
 */
export const MAX_TEXT_BYTES = 8192;

const ASCII = /^[\x00-\x7f]*$/;

/**
 * `text` held to `maxBytes` of UTF-8: `{text, bytes, scannedBytes, cut}`, where `bytes` is the
 * whole text's length in UTF-8, `text` its longest prefix of at most `maxBytes` bytes that ends
 * on a character boundary, and `scannedBytes` that prefix's length. One pass over the text (a
 * 5 MB paste is counted once, never encoded whole).
 */
export function limitText(text, maxBytes = MAX_TEXT_BYTES) {
  // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4).
  if (text.length * 3 <= maxBytes) {
    const bytes = ASCII.test(text) ? text.length : new TextEncoder().encode(text).length;
    return { text, bytes, scannedBytes: bytes, cut: false };
  }
  const bytes = ASCII.test(text) ? text.length : utf8Length(text);
  if (bytes <= maxBytes) return { text, bytes, scannedBytes: bytes, cut: false };
  // Every code unit is at least one byte, so the prefix lies within the first maxBytes units;
  // encodeInto stops before a character that would not fit whole.
  let head = text.slice(0, maxBytes);
  // A pair cut in two would encode its first half as U+FFFD: leave the pair out whole.
  if ((head.charCodeAt(head.length - 1) & 0xfc00) === 0xd800) head = head.slice(0, -1);
  const { read, written } = new TextEncoder().encodeInto(head, new Uint8Array(maxBytes));
  return { text: head.slice(0, read), bytes, scannedBytes: written, cut: true };
}

/** The length of `text` in UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes, as it encodes). */
function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
