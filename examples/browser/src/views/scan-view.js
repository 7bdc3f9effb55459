// The Scan box: the policy's verdict on a text as it is typed, its findings and the text as it
// would be stored. The scan runs in the policy worker once typing pauses; the newest text wins
// (an answer for an older one is dropped). The box never holds more than `remember` accepts
// (MAX_TEXT_BYTES): a paste, a drop or typing past it puts in only what fits and says so, so a
// 5 MB paste never reaches the textarea (whose own editing of 5 MB blocks the page for a
// second). A longer text set some other way is scanned cut, and the box says so too. The input
// handler only restarts a timer.
import { $, el } from './dom.js';
import { MAX_TEXT_BYTES, limitText } from '../policy/limits.js';

/** How long typing must pause before the text is scanned, in milliseconds. */
const DEBOUNCE_MS = 120;

const utf8 = new TextEncoder();
/** The length of `text` in UTF-8. */
const utf8Bytes = (text) => limitText(text, Infinity).bytes;
const utf8Decoder = new TextDecoder();

export class ScanView {
  /** @param {() => ?{scan(target: string, text: string, author: string): Promise<object>}} getPolicy the policy client, once it is loading */
  constructor(getPolicy) {
    this.getPolicy = getPolicy;
    this.latest = 0;
    this.timer = null;
    for (const id of ['#scan-text', '#scan-target', '#scan-author']) $(id).addEventListener('input', () => this.schedule());
    $('#scan-text').addEventListener('beforeinput', (event) => this.holdToLimit(event));
  }

  /**
   * Before text goes into the box: when the box would then hold more than MAX_TEXT_BYTES, only
   * what fits goes in (cut on a character boundary), and the note says how much was refused.
   */
  holdToLimit(event) {
    if (!event.inputType.startsWith('insert') || !event.cancelable) return;
    const inserted = event.data ?? event.dataTransfer?.getData('text/plain') ?? null;
    if (inserted === null || inserted === '') return;
    const box = event.target;
    const { selectionStart: start, selectionEnd: end, value } = box;
    const kept = utf8Bytes(value) - utf8Bytes(value.slice(start, end));
    const incoming = limitText(inserted, Math.max(0, MAX_TEXT_BYTES - kept));
    if (!incoming.cut) return;
    event.preventDefault();
    box.setRangeText(incoming.text, start, end, 'end');
    const note = $('#scan-limit');
    note.textContent = `${incoming.bytes} byte${incoming.bytes === 1 ? "" : "s"}: remember refuses text over ${MAX_TEXT_BYTES} bytes; ` +
      `the first ${incoming.scannedBytes} bytes of it were put in the box and scanned.`;
    note.hidden = false;
    this.noteHeld = true;
    this.schedule();
  }

  /** Scans once typing has paused for DEBOUNCE_MS. */
  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.scan(), DEBOUNCE_MS);
  }

  /** Scans the box's text now (at most MAX_TEXT_BYTES of it) and shows the answer, unless a newer scan started. */
  async scan() {
    clearTimeout(this.timer);
    const policy = this.getPolicy();
    if (!policy) return;
    const request = ++this.latest;
    const limited = limitText($('#scan-text').value, MAX_TEXT_BYTES);
    const target = $('#scan-target').value;
    const author = $('#scan-author').value;
    const note = $('#scan-limit');
    if (limited.cut) {
      note.textContent = `${limited.bytes} bytes: remember refuses text over ${MAX_TEXT_BYTES} bytes; the first ${limited.scannedBytes} bytes were scanned.`;
      note.hidden = false;
    } else if (!this.noteHeld) {
      note.textContent = '';
      note.hidden = true;
    }
    this.noteHeld = false;
    let result;
    try {
      result = await policy.scan(target, limited.text, author);
    } catch (error) {
      if (request !== this.latest) return;
      $('#scan-verdict').textContent = '—';
      $('#scan-verdict').className = '';
      $('#scan-reason').textContent = `The scan failed: ${error.message}`;
      return;
    }
    if (request !== this.latest) return; // a newer text's answer will show instead
    const verdict = $('#scan-verdict');
    verdict.textContent = result.verdict;
    verdict.className = result.verdict;
    $('#scan-reason').textContent = result.reason ?? '';
    const bytes = utf8.encode(limited.text);
    $('#scan-findings').replaceChildren(...result.findings.map((f) =>
      el('li', {}, el('code', {}, f.kind), ` at bytes ${f.start}-${f.end}: `,
        el('q', {}, utf8Decoder.decode(bytes.subarray(f.start, f.end))))));
    $('#scan-result').textContent = result.text;
    $('#view-scan').dataset.scanned = String(request);
  }
}
