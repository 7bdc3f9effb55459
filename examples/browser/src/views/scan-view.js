// The Scan box: the policy's verdict on a text as it is typed, its findings and the text as it
// would be stored.
import { $, el } from './dom.js';
import { hostScanResult } from '../policy/wit.js';

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

export class ScanView {
  constructor(getPolicy) {
    this.getPolicy = getPolicy;
    this.pending = null;
    for (const id of ['#scan-text', '#scan-target']) $(id).addEventListener('input', () => this.scan());
  }

  async scan() {
    const policy = this.getPolicy();
    if (!policy) return;
    const text = $('#scan-text').value;
    const target = $('#scan-target').value;
    const request = (this.pending = Symbol('scan'));
    const [raw] = await policy.withInstance((p) => p.scan([{ text, target }]));
    if (request !== this.pending) return; // a later keystroke's answer will show instead
    const result = hostScanResult(raw);
    const verdict = $('#scan-verdict');
    verdict.textContent = result.verdict;
    verdict.className = result.verdict;
    $('#scan-reason').textContent = result.reason ?? '';
    const bytes = utf8.encode(text);
    $('#scan-findings').replaceChildren(...result.findings.map((f) =>
      el('li', {}, el('code', {}, f.kind), ` at bytes ${f.start}-${f.end}: `,
        el('q', {}, utf8Decoder.decode(bytes.subarray(f.start, f.end))))));
    $('#scan-result').textContent = result.text;
  }
}
