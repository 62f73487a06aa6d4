// Adding downloads: the add form's URLs with its options (aria2.addUri per line), and a list or
// Metalink file picked or dropped onto the page (adding.js reads it).
import * as fmt from './format.js';
import { addOptions, readDropped } from './adding.js';

const $ = (id) => document.getElementById(id);
const plural = (n) => `${n} download${n === 1 ? '' : 's'}`;

export class Adder {
  #session;

  /** session: {rpc, notice(text, bad), soon(), daemonDir, readOnly}, set while signed in. */
  constructor(session) {
    this.#session = session;
    $('add-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.#add();
    });
    $('list-file').addEventListener('change', () => {
      this.#addFiles($('list-file').files);
      $('list-file').value = '';
    });
    document.addEventListener('dragover', (e) => {
      if (session.rpc && e.dataTransfer.types.includes('Files')) {
        e.preventDefault();
        document.body.classList.add('dragging');
      }
    });
    document.addEventListener('dragleave', (e) => {
      if (e.relatedTarget === null) {
        document.body.classList.remove('dragging');
      }
    });
    document.addEventListener('drop', (e) => {
      document.body.classList.remove('dragging');
      if (session.rpc && e.dataTransfer.files.length > 0) {
        e.preventDefault();
        this.#addFiles(e.dataTransfer.files);
      }
    });
  }

  async #add() {
    const s = this.#session;
    const lines = fmt.parseUrlLines($('urls').value);
    if (lines.length === 0) {
      s.notice('Nothing to add: put one URL per line in the URLs field.', true);
      $('urls').focus();
      return;
    }
    const options = addOptions({
      dir: $('folder').value, out: $('out').value, checksum: $('checksum').value, split: $('connections').value,
      'max-download-limit': $('download-limit').value, headers: $('headers').value,
    });
    try {
      const answers = await s.rpc.multicall(lines.map((uris) => ['aria2.addUri', uris, options]));
      const failed = answers.map((a, i) => (a.error ? `${lines[i][0]}: ${a.error.message}` : null)).filter(Boolean);
      const added = answers.length - failed.length;
      if (failed.length) {
        // keep the refused lines in the field, to be fixed and added again
        $('urls').value = lines.filter((_, i) => answers[i].error).map((l) => l.join(' ')).join('\n');
        s.notice(`Added ${added}; refused: ${failed.join('; ')}`, true);
      } else {
        $('urls').value = '';
        s.notice(`Added ${plural(added)}`);
      }
    } catch (e) {
      s.notice(`Cannot add: ${e.message}`, true);
    }
    s.soon();
  }

  /** Dropped or picked files: a Metalink document to braid.addMetalink, a text file as an -i list to aria2.addUri. */
  async #addFiles(files) {
    const s = this.#session;
    if (s.readOnly) {
      s.notice('A read-only key cannot add downloads.', true);
      return;
    }
    for (const file of files) {
      let what;
      try {
        what = await readDropped(file, $('folder').value, s.daemonDir);
      } catch (e) {
        s.notice(`${file.name}: ${e.message}`, true);
        continue;
      }
      try {
        if (what.metalink) {
          const gids = await s.rpc.call('braid.addMetalink', what.metalink, false);
          s.notice(`Added ${plural(gids.length)} from ${file.name}`);
        } else {
          const answers = await s.rpc.multicall(what.list.map((e) => ['aria2.addUri', e.uris, e.options]));
          const failed = answers.map((a, i) => (a.error ? `line ${what.list[i].line}: ${a.error.message}` : null))
            .filter(Boolean);
          s.notice(`Added ${plural(answers.length - failed.length)} from ${file.name}`
            + (failed.length ? `; refused: ${failed.join('; ')}` : ''), failed.length > 0);
        }
      } catch (e) {
        s.notice(`${file.name}: ${e.message}`, true);
      }
    }
    s.soon();
  }
}
