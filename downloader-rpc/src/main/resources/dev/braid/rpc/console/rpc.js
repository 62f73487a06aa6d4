// aria2's JSON-RPC to the daemon that served this page: over one WebSocket (answers and the
// notifications), over HTTP POST when no socket opens. The secret goes in each call's params,
// never in a URL.

/** An error answer of the daemon (code 1: the secret was refused) or of the transport (code -1). */
export class RpcError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }

  get unauthorized() {
    return this.code === 1 && /^Unauthorized/.test(this.message);
  }
}

const TIMEOUT_MS = 15000;

export class Rpc {
  #secret;
  #socket = null;
  #opening = null;
  #httpOnly = false;
  #pending = new Map();
  #next = 1;
  #listeners = new Set();

  constructor(secret) {
    this.#secret = secret;
  }

  /** Calls fn(method, params) for each notification (aria2.onDownloadStart, ...): only once a call carried the right secret. */
  onNotification(fn) {
    this.#listeners.add(fn);
  }

  /** The result of method(params...) with the secret first; throws RpcError on an error answer. */
  async call(method, ...params) {
    const answer = await this.#request(method, ['token:' + this.#secret, ...params]);
    if (answer.error) {
      throw new RpcError(answer.error.code, answer.error.message);
    }
    return answer.result;
  }

  /**
   * Several calls in one round trip (system.multicall): calls is [[method, ...params], ...]; the
   * answer has, for each, {result} or {error: RpcError}.
   */
  async multicall(calls) {
    const list = calls.map(([methodName, ...params]) => ({ methodName, params: ['token:' + this.#secret, ...params] }));
    const answer = await this.#request('system.multicall', [list]);
    if (answer.error) {
      throw new RpcError(answer.error.code, answer.error.message);
    }
    return answer.result.map((r) => (Array.isArray(r) ? { result: r[0] } : { error: new RpcError(r.code, r.message) }));
  }

  close() {
    this.#listeners.clear();
    if (this.#socket) {
      this.#socket.close();
    }
  }

  async #request(method, params) {
    const request = { jsonrpc: '2.0', id: 'c' + this.#next++, method, params };
    const socket = await this.#open();
    return socket ? this.#overSocket(socket, request) : this.#overHttp(request);
  }

  /** The open socket, opening one if needed; null when none can be opened (then HTTP is used from then on). */
  #open() {
    if (this.#httpOnly) {
      return Promise.resolve(null);
    }
    if (this.#socket && this.#socket.readyState === WebSocket.OPEN) {
      return Promise.resolve(this.#socket);
    }
    if (!this.#opening) {
      this.#opening = new Promise((resolve) => {
        const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
        const socket = new WebSocket(`${scheme}//${location.host}/jsonrpc`);
        let opened = false;
        socket.addEventListener('open', () => {
          opened = true;
          this.#socket = socket;
          this.#opening = null;
          resolve(socket);
        });
        socket.addEventListener('message', (e) => this.#received(e.data));
        socket.addEventListener('close', () => {
          this.#opening = null;
          if (!opened) {
            this.#httpOnly = true;
            resolve(null);
          }
          this.#socket = null;
          for (const [, p] of this.#pending) {
            p.reject(new RpcError(-1, 'the connection to the daemon closed'));
          }
          this.#pending.clear();
        });
      });
    }
    return this.#opening;
  }

  #overSocket(socket, request) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(request.id);
        reject(new RpcError(-1, 'the daemon did not answer in time'));
      }, TIMEOUT_MS);
      this.#pending.set(request.id, {
        resolve: (v) => { clearTimeout(timer); resolve(v); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      socket.send(JSON.stringify(request));
    });
  }

  #received(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.id !== undefined && this.#pending.has(message.id)) {
      const p = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      p.resolve(message);
    } else if (message.method) {
      for (const fn of this.#listeners) {
        fn(message.method, message.params);
      }
    }
  }

  async #overHttp(request) {
    let response;
    try {
      response = await fetch('jsonrpc', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(request),
        cache: 'no-store',
      });
    } catch (e) {
      throw new RpcError(-1, 'cannot reach the daemon: ' + e.message);
    }
    try {
      return await response.json();
    } catch {
      throw new RpcError(-1, `the daemon answered ${response.status} without JSON`);
    }
  }
}
