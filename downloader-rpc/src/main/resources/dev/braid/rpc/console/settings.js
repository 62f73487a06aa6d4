// The queue-wide settings: the global speed limit (aria2's max-overall-download-limit) and the run
// windows and speed schedule (braid.globalOptions); a refusal shows beside its field.
import * as fmt from './format.js';
import { setText } from './queue.js';

const $ = (id) => document.getElementById(id);

export class Settings {
  #session;

  /** session: {rpc, notice(text, bad)}, the signed-in connection and the page's status line. */
  constructor(session) {
    this.#session = session;
    $('limit-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.#setLimit();
    });
    $('windows-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.#setSchedule('runWindows', $('run-windows'), $('windows-error'), 'Run windows');
    });
    $('schedule-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.#setSchedule('speedSchedule', $('speed-schedule'), $('schedule-error'), 'Speed schedule');
    });
  }

  /** Fills the fields from the daemon's options (aria2's global ones and braid.globalOptions). */
  show(aria2Options, braidOptions, readOnly) {
    $('limit').value = fmt.limit(aria2Options['max-overall-download-limit']);
    $('run-windows').value = braidOptions.runWindows;
    $('speed-schedule').value = braidOptions.speedSchedule;
    for (const id of ['limit', 'run-windows', 'speed-schedule']) {
      $(id).readOnly = readOnly;
    }
  }

  /** Sets one of braid.globalOptions (runWindows or speedSchedule) to the field's text. */
  async #setSchedule(key, field, error, label) {
    if (field.readOnly) {
      return;
    }
    const value = field.value.trim();
    const { rpc } = this.#session;
    try {
      const options = await rpc.call('braid.globalOptions');
      options[key] = value;
      await rpc.call('braid.changeGlobalOptions', options);
      setText(error, '');
      field.removeAttribute('aria-invalid');
      this.#session.notice(value ? `${label} set to ${value}` : `${label}: none`);
    } catch (e) {
      setText(error, e.message);
      field.setAttribute('aria-invalid', 'true');
      field.focus();
    }
  }

  async #setLimit() {
    if ($('limit').readOnly) {
      return;
    }
    const value = $('limit').value.trim() || '0';
    try {
      await this.#session.rpc.call('aria2.changeGlobalOption', { 'max-overall-download-limit': value });
      this.#session.notice(value === '0' ? 'No speed limit' : `Speed limit set to ${value}`);
    } catch (e) {
      this.#session.notice(`Speed limit: ${e.message}`, true);
    }
  }
}
