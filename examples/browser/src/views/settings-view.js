// The Settings view: memory on or off for the subject and for each of its threads, with every
// setting in force, as `GET settings` reports them. Only a human token may change them; the
// server's refusal is shown as it is.
import { $, el } from './dom.js';

export class SettingsView {
  /** `live()`: the signed-in knowledge base or null; `notify(message)`: shows an outcome. */
  constructor(live, notify) {
    this.live = live;
    this.notify = notify;
  }

  async render() {
    const live = this.live();
    const subject = $('#settings-subject');
    const threads = $('#settings-threads');
    if (!live) {
      subject.replaceChildren(el('p', {}, 'Sign in to see and change settings.'));
      threads.replaceChildren();
      return;
    }
    subject.replaceChildren(await this.row(live, null));
    const names = [...new Set([...live.memories.values()].map((m) => m.thread).filter((t) => t !== null))].sort();
    threads.replaceChildren(...(names.length
      ? await Promise.all(names.slice(0, 200).map((name) => this.row(live, name)))
      : [el('p', { class: 'meta' }, 'No memory of this subject was written in a thread.')]));
  }

  /** One switch with the settings in force, for the subject (`thread` null) or a thread. */
  async row(live, thread) {
    const label = thread === null ? 'the subject' : `thread ${thread}`;
    let view;
    try {
      view = await live.api.settings(thread);
    } catch (error) {
      return el('p', {}, `The settings of ${label} cannot be read: ${error.message}`);
    }
    const id = `setting-${thread === null ? 'subject' : encodeURIComponent(thread).replace(/%/g, '_')}`;
    const box = el('input', { type: 'checkbox', id, checked: view.memory_enabled });
    const outcome = el('span', { class: 'meta', role: 'status' });
    const inForce = Object.entries(view.settings).map(([k, v]) => `${k}: ${v === null ? 'none' : v}`).join(' · ');
    box.addEventListener('change', async () => {
      box.disabled = true;
      try {
        const answer = await live.api.setEnabled(box.checked, thread);
        box.checked = answer.memory_enabled;
        outcome.textContent = `Memory is ${answer.memory_enabled ? 'on' : 'off'} for ${label}.`;
        this.notify(outcome.textContent);
      } catch (error) {
        box.checked = !box.checked;
        outcome.textContent = `Not changed: ${error.message}`;
      } finally {
        box.disabled = false;
      }
    });
    return el('div', { class: 'setting', 'data-thread': thread ?? '' },
      el('label', { for: id }, box, ` Memory on for ${label}`), ' ', outcome,
      el('div', { class: 'meta' }, inForce));
  }
}
