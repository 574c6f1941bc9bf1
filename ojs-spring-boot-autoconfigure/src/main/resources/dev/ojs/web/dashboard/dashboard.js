/* OJS dashboard: a single page on the Admin API (ojs-admin-api.md). No build step, no dependency.
 * Routes: #/overview, #/jobs?filters, #/jobs/<id>, #/dead-letters, #/queues, #/recurring, #/nodes. */
'use strict';

/* The Admin API, relative to this page (so it works under a context path); resolved against the
 * origin, never the address bar, which may carry user:password@ that fetch() refuses. */
const API = new URL(document.querySelector('meta[name="ojs-api"]').content, location.origin + location.pathname).href.replace(/\/$/, '');
const LIVE_MS = 5000;
const STATES = ['pending', 'available', 'scheduled', 'active', 'retryable', 'completed', 'cancelled', 'discarded', 'dead_letter'];
const $ = (sel, root = document) => root.querySelector(sel);

/* ---------- HTML with escaping ---------- */
class Raw { constructor(s) { this.s = s; } toString() { return this.s; } }
const raw = (s) => new Raw(s);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
function part(v) {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Raw) return v.s;
  if (Array.isArray(v)) return v.map(part).join('');
  return esc(v);
}
function html(strings, ...values) {
  let out = strings[0];
  values.forEach((v, i) => { out += part(v) + strings[i + 1]; });
  return raw(out);
}

/* ---------- formatting ---------- */
const nf = new Intl.NumberFormat();
const num = (n) => (n === null || n === undefined ? '–' : nf.format(n));
const pct = (x) => (x === null || !isFinite(x) ? '–' : (x * 100).toFixed(x < 0.1 ? 1 : 0) + '%');
const rate = (n) => (n === null || n === undefined ? '–' : (n >= 10 ? Math.round(n) : Number(n).toFixed(1)));
function duration(ms) {
  if (ms === null || ms === undefined) return '–';
  const s = Math.abs(ms) / 1000;
  if (s < 1) return Math.round(Math.abs(ms)) + ' ms';
  if (s < 60) return (s < 10 ? s.toFixed(1) : Math.round(s)) + ' s';
  if (s < 3600) return Math.floor(s / 60) + ' min ' + (Math.floor(s % 60) ? Math.floor(s % 60) + ' s' : '');
  if (s < 86400) return Math.floor(s / 3600) + ' h ' + (Math.floor((s % 3600) / 60) ? Math.floor((s % 3600) / 60) + ' min' : '');
  return Math.floor(s / 86400) + ' d ' + (Math.floor((s % 86400) / 3600) ? Math.floor((s % 86400) / 3600) + ' h' : '');
}
function ago(iso) {
  if (!iso) return '–';
  const ms = Date.now() - Date.parse(iso);
  if (ms < 0) return 'in ' + duration(-ms).trim();
  if (ms < 5000) return 'just now';
  const s = ms / 1000;
  if (s < 60) return Math.floor(s) + ' s ago';
  if (s < 3600) return Math.floor(s / 60) + ' min ago';
  if (s < 86400) return Math.floor(s / 3600) + ' h ' + (Math.floor((s % 3600) / 60) ? Math.floor((s % 3600) / 60) + ' min ' : '') + 'ago';
  return Math.floor(s / 86400) + ' d ' + (Math.floor((s % 86400) / 3600) ? Math.floor((s % 86400) / 3600) + ' h ' : '') + 'ago';
}
const dtf = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
const tf = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const when = (iso) => (iso ? dtf.format(new Date(iso)) : '–');
/** A time shown relative, with the exact instant on hover; kept current by the ticker. */
const timeAgo = (iso) => (iso ? html`<time data-ago="${iso}" title="${new Date(iso).toISOString()}">${ago(iso)}</time>` : html`<span class="muted">–</span>`);
function countdown(iso) {
  if (!iso) return html`<span class="muted">–</span>`;
  return html`<span class="countdown" data-countdown="${iso}" title="${new Date(iso).toISOString()}">${countdownText(iso)}</span>`;
}
function countdownText(iso) {
  const ms = Date.parse(iso) - Date.now();
  if (ms <= 0) return 'due now';
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600); const m = Math.floor((s % 3600) / 60); const sec = s % 60;
  return 'in ' + (h ? h + 'h ' : '') + (h || m ? String(m).padStart(h ? 2 : 1, '0') + 'm ' : '') + String(sec).padStart(h || m ? 2 : 1, '0') + 's';
}
const shortId = (id) => (id && id.length > 13 ? id.slice(0, 8) + '…' + id.slice(-4) : id);
const badge = (state, label) => html`<span class="badge ${state}">${label || String(state).replace('_', ' ')}</span>`;
function jobState(job) { return job.dead_letter ? 'dead_letter' : job.state; }

function jsonView(value) {
  const text = JSON.stringify(value, null, 2);
  if (text === undefined) return html`<pre class="json"><span class="z">null</span></pre>`;
  const colored = esc(text).replace(/(&quot;(?:[^&]|&(?!quot;))*?&quot;)(\s*:)?|\b(true|false)\b|\bnull\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g,
    (m, str, colon, bool) => {
      if (str) return colon ? `<span class="k">${str}</span>${colon}` : `<span class="s">${str}</span>`;
      if (bool) return `<span class="b">${m}</span>`;
      if (m === 'null') return `<span class="z">${m}</span>`;
      return `<span class="n">${m}</span>`;
    });
  return html`<pre class="json">${raw(colored)}</pre>`;
}

/* ---------- Admin API ---------- */
class ApiFailure extends Error {
  constructor(status, error) {
    super((error && error.message) || 'HTTP ' + status);
    this.status = status; this.code = error && error.code;
  }
}
let config = { read_only: true, show_args: true, csrf: null };
/* Without Spring Security the Admin API wants a bearer token (ojs.dashboard.token): asked for
 * once, kept for this tab only (sessionStorage), sent with every call. */
let token = sessionStorage.getItem('ojs.token');
let asking = null;
function askToken(refused) {
  if (!asking) {
    asking = new Promise((resolve) => {
      const modal = $('#modal');
      modal.innerHTML = part(html`<form class="dialog" id="token-form">
        <h3 id="modal-title">Admin API token</h3>
        <div class="body"><p>${refused ? 'That token was refused. ' : ''}Enter the token of this application's OJS Admin API (<code>ojs.dashboard.token</code>). It is kept for this browser tab only.</p>
        <input class="token-input" id="token-input" type="password" autocomplete="off" aria-label="Token" required></div>
        <div class="foot"><button class="btn primary" type="submit" id="token-submit">Sign in</button></div></form>`);
      modal.classList.remove('hidden');
      $('#token-input').focus();
      $('#token-form').onsubmit = (e) => {
        e.preventDefault();
        token = $('#token-input').value.trim();
        sessionStorage.setItem('ojs.token', token);
        modal.classList.add('hidden');
        modal.innerHTML = '';
        asking = null;
        resolve();
      };
    });
  }
  return asking;
}
async function api(method, path, body) {
  let res;
  for (let tries = 0; ; tries++) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method !== 'GET' && config.csrf && config.csrf.token) headers[config.csrf.header_name || 'X-CSRF-TOKEN'] = config.csrf.token;
    if (token) headers.Authorization = 'Bearer ' + token;
    res = await fetch(API + path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
    const bearer = /^bearer/i.test(res.headers.get('WWW-Authenticate') || '');
    if (res.status !== 401 || !bearer || tries >= 5) break;
    await askToken(Boolean(token));
  }
  if (res.status === 204) return null;
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiFailure(res.status, data && data.error);
  return data;
}
const get = (path) => api('GET', path);
function query(params) {
  const q = new URLSearchParams();
  Object.entries(params).forEach(([k, v]) => { if (v !== undefined && v !== null && v !== '') q.set(k, v); });
  const s = q.toString();
  return s ? '?' + s : '';
}
const isoAgo = (ms) => new Date(Date.now() - ms).toISOString();
const writable = () => !config.read_only && config.can_write !== false;

/* ---------- UI helpers: toasts, modal, actions ---------- */
function toast(message, kind) {
  const el = document.createElement('div');
  el.className = 'toast' + (kind ? ' ' + kind : '');
  el.textContent = message;
  $('#toasts').appendChild(el);
  setTimeout(() => el.remove(), kind === 'error' ? 8000 : 4000);
}
/**
 * Shows a dialog; resolves with the data-modal value of the button pressed ('cancel' on Escape or
 * outside the dialog) and the values of its inputs by id, read before it closes.
 */
function dialog({ title, body, buttons, focus }) {
  const modal = $('#modal');
  modal.innerHTML = part(html`<div class="dialog">
    <h3 id="modal-title">${title}</h3><div class="body">${body}</div>
    <div class="foot"><button class="btn" type="button" data-modal="cancel">Cancel</button>${buttons}</div></div>`);
  modal.classList.remove('hidden');
  $(focus).focus();
  return new Promise((resolve) => {
    const close = (button) => { const inputs = Object.fromEntries([...modal.querySelectorAll('input[id]')].map((i) => [i.id, i.value])); modal.classList.add('hidden'); modal.innerHTML = ''; modal.onclick = null; document.removeEventListener('keydown', onKey); resolve({ button, inputs }); };
    const onKey = (e) => { if (e.key === 'Escape') close('cancel'); else if (e.key === 'Enter' && e.target.matches('#modal input')) close('ok'); };
    document.addEventListener('keydown', onKey);
    modal.onclick = (e) => {
      const b = e.target.closest('[data-modal]');
      if (b) close(b.dataset.modal); else if (e.target === modal) close('cancel');
    };
  });
}
/** Shows a dialog; resolves true when the user confirms. */
async function confirmDialog({ title, body, confirm, danger }) {
  return (await dialog({ title, body, focus: '#modal-confirm',
    buttons: html`<button class="btn ${danger ? 'danger solid' : 'primary'}" type="button" data-modal="ok" id="modal-confirm">${confirm}</button>` })).button === 'ok';
}
async function run(label, fn) {
  try {
    const result = await fn();
    if (label) toast(typeof label === 'function' ? label(result) : label);
    await refresh();
    return result;
  } catch (e) {
    toast(e.message || String(e), 'error');
    return null;
  }
}

/* ---------- charts (inline SVG) ---------- */
const charts = new Map();
let chartSeq = 0;
const PAD = { L: 40, R: 8, T: 10, B: 22 };
/**
 * A time series chart: stacked bars or lines with areas, drawn at the element's real width.
 * series: [{key, label, cls: 'a'|'b', format}], points: [{t: Date, ...}].
 */
function chart({ points, series, kind = 'bars', yFormat = num, height = 200, floor = 1 }) {
  const id = 'c' + (++chartSeq);
  charts.set(id, { points, series, yFormat, kind, height, floor });
  return html`<div class="chart" data-chart="${id}" data-kind="${kind}"><svg height="${height}" role="img"></svg><div class="tip hidden"></div></div>`;
}
function chartGeometry(c, W) {
  const { points, kind, height: H } = c;
  const max = Math.max(c.floor, ...points.map((p) => (kind === 'bars' ? c.series.reduce((s, x) => s + (p[x.key] || 0), 0) : Math.max(...c.series.map((x) => p[x.key] || 0)))));
  const top = niceMax(max);
  const inner = W - PAD.L - PAD.R;
  const n = points.length;
  const x = kind === 'bars' ? (i) => PAD.L + (i * inner) / Math.max(1, n) : (i) => PAD.L + (n <= 1 ? 0 : (i * inner) / (n - 1));
  const center = kind === 'bars' ? (i) => x(i) + inner / Math.max(1, n) / 2 : x;
  const y = (v) => PAD.T + (H - PAD.T - PAD.B) * (1 - v / top);
  return { W, H, n, inner, top, x, y, center };
}
function drawCharts() {
  document.querySelectorAll('.chart[data-chart]').forEach((el) => {
    const c = charts.get(el.dataset.chart);
    if (!c) return;
    const W = Math.max(200, el.clientWidth);
    const g = chartGeometry(c, W);
    const { H, x, y, top } = g;
    let out = '';
    for (let k = 0; k <= 4; k++) {
      const yy = y((top * k) / 4);
      out += `<line class="gridline" x1="${PAD.L}" x2="${W - PAD.R}" y1="${yy}" y2="${yy}"/><text class="axis" x="${PAD.L - 6}" y="${yy + 3.5}" text-anchor="end">${esc(c.yFormat((top * k) / 4))}</text>`;
    }
    const ticks = Math.min(Math.max(2, Math.floor(W / 110)), g.n);
    for (let k = 0; k < ticks; k++) {
      const i = Math.round((k * (g.n - 1)) / Math.max(1, ticks - 1));
      const anchor = k === 0 ? 'start' : k === ticks - 1 ? 'end' : 'middle';
      out += `<text class="axis" x="${g.center(i)}" y="${H - 6}" text-anchor="${anchor}">${esc(tf.format(c.points[i].t))}</text>`;
    }
    if (c.kind === 'bars') {
      const bw = Math.max(1, g.inner / Math.max(1, g.n) - (g.n > 100 ? 0.5 : 2));
      c.points.forEach((p, i) => {
        let base = 0;
        c.series.forEach((s) => {
          const v = p[s.key] || 0;
          if (v > 0) out += `<rect class="bar-${s.cls}" x="${x(i).toFixed(1)}" y="${y(base + v).toFixed(1)}" width="${bw.toFixed(1)}" height="${Math.max(1, y(base) - y(base + v)).toFixed(1)}" rx="1.5"/>`;
          base += v;
        });
      });
    } else if (g.n) {
      c.series.forEach((s) => {
        const line = c.points.map((p, i) => `${x(i).toFixed(1)},${y(p[s.key] || 0).toFixed(1)}`).join(' ');
        out += `<polygon class="area-${s.cls}" points="${x(0)},${y(0)} ${line} ${x(g.n - 1)},${y(0)}"/><polyline class="line-${s.cls}" points="${line}"/>`;
      });
    }
    if (!g.n) out += `<text class="axis" x="${W / 2}" y="${H / 2}" text-anchor="middle">No data yet</text>`;
    out += `<line class="cursor hidden" x1="0" x2="0" y1="${PAD.T}" y2="${H - PAD.B}"/>`;
    const svg = el.querySelector('svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('width', W);
    svg.innerHTML = out;
    c.geometry = g;
  });
}
window.addEventListener('resize', drawCharts);
function niceMax(v) {
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 2.5, 5, 10]) if (v <= m * p + 1e-9) return m * p;
  return 10 * p;
}
document.addEventListener('mousemove', (e) => {
  const el = e.target.closest && e.target.closest('.chart');
  document.querySelectorAll('.chart .tip:not(.hidden)').forEach((t) => { if (!el || t.parentNode !== el) { t.classList.add('hidden'); t.parentNode.querySelector('.cursor').classList.add('hidden'); } });
  if (!el) return;
  const c = charts.get(el.dataset.chart);
  if (!c || !c.geometry || !c.points.length) return;
  const g = c.geometry;
  const fx = e.clientX - el.querySelector('svg').getBoundingClientRect().left;
  let i = c.kind === 'bars' ? Math.floor(((fx - PAD.L) / g.inner) * g.n) : Math.round(((fx - PAD.L) / g.inner) * (g.n - 1));
  i = Math.max(0, Math.min(g.n - 1, i));
  const p = c.points[i];
  const cx = g.center(i);
  const cursor = el.querySelector('.cursor');
  cursor.setAttribute('x1', cx); cursor.setAttribute('x2', cx); cursor.classList.remove('hidden');
  const tip = el.querySelector('.tip');
  tip.innerHTML = part(html`<div class="muted">${dtf.format(p.t)}</div>${c.series.map((s) => html`<div><b>${(s.format || c.yFormat)(p[s.key] || 0)}</b> ${s.label}</div>`)}`);
  tip.classList.remove('hidden');
  tip.style.left = Math.min(g.W - tip.offsetWidth, Math.max(0, cx + 10)) + 'px';
  tip.style.top = '4px';
});

/* ---------- routing ---------- */
function parseRoute() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path, q] = hash.split('?');
  const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { page: segments[0] || 'overview', id: segments[1], params: Object.fromEntries(new URLSearchParams(q || '')) };
}
function go(page, params) { location.hash = '#/' + page + query(params || {}); }

const pages = {};
/** The page of one item of a list page: #/jobs/{id}, #/workflows/{id}. */
const DETAIL = { jobs: 'job', workflows: 'workflow' };
let current = null;
let renderSeq = 0;

async function route() {
  const r = parseRoute();
  const name = r.id && DETAIL[r.page] ? DETAIL[r.page] : r.page;
  const page = pages[name] || pages.overview;
  current = { page, route: r, state: {} };
  delete document.body.dataset.rendered;
  document.querySelectorAll('#nav a').forEach((a) => a.classList.toggle('active', a.dataset.route === r.page));
  $('#title').textContent = page.title(r);
  document.title = page.title(r) + ' · OJS';
  $('#view').innerHTML = part(page.shell ? page.shell(r, current.state) : html`<div id="content"><div class="loading">Loading…</div></div>`);
  if (page.bind) page.bind(r, current.state);
  await refresh();
}

async function refresh() {
  if (!current) return;
  const seq = ++renderSeq;
  const { page, route: r, state } = current;
  try {
    const data = await page.load(r, state);
    if (seq !== renderSeq || current.page !== page) return;
    charts.clear();
    $('#content').innerHTML = part(page.view(data, r, state));
    drawCharts();
    $('#banner').textContent = '';
    document.body.dataset.rendered = location.hash;
    $('#updated') && ($('#updated').dataset.at = new Date().toISOString());
  } catch (e) {
    if (seq !== renderSeq) return;
    if (e instanceof ApiFailure && e.status === 404 && page.notFound) {
      $('#content').innerHTML = part(page.notFound(r));
      document.body.dataset.rendered = location.hash;
    } else {
      $('#banner').textContent = 'Could not load this page: ' + (e.message || e) + (e.status ? ' (HTTP ' + e.status + ')' : '');
    }
  }
  refreshNav();
}

async function refreshNav() {
  try {
    const stats = await get('/stats');
    const jobs = stats.jobs || {};
    $('#nav-dead').textContent = jobs.dead_letter ? num(jobs.dead_letter) : '';
    $('#nav-jobs').textContent = num(STATES.filter((s) => s !== 'completed' && s !== 'cancelled' && s !== 'discarded' && s !== 'dead_letter').reduce((n, s) => n + (jobs[s] || 0), 0));
    const nodes = stats.workers || {};
    $('#nav-nodes').textContent = nodes.total !== undefined ? num(nodes.total) : '';
    const queues = stats.queues || {};
    $('#nav-queues').textContent = typeof queues === 'number' ? num(queues) : (queues.total !== undefined ? num(queues.total) : '');
  } catch (e) { /* the page itself shows the error */ }
}

/* ---------- pages ---------- */
function emptyRow(cols, text, icon) {
  return html`<tr><td colspan="${cols}"><div class="empty"><span class="big">${icon || '✓'}</span>${text}</div></td></tr>`;
}
function historyPoints(history, stepMs) {
  return (history.data || []).map((d) => ({
    t: new Date(d.timestamp), completed: d.completed || 0, failed: d.failed || 0, dead_lettered: d.dead_lettered || 0,
    retried: d.retried || 0, processed: d.processed !== undefined ? d.processed : (d.completed || 0) + (d.failed || 0),
    rate: (d.processed || (d.completed || 0) + (d.failed || 0)) ? (d.failed || 0) / (d.processed || (d.completed || 0) + (d.failed || 0)) : 0,
    stepMs
  }));
}
/** The start of the current run of failures: walks back until 30 minutes without any. */
function failingSince(points) {
  let since = null; let quiet = 0;
  for (let i = points.length - 1; i >= 0; i--) {
    if (points[i].failed > 0) { since = points[i].t; quiet = 0; } else if (since) { quiet += points[i].stepMs; if (quiet >= 30 * 60000) break; }
    else { quiet += points[i].stepMs; if (quiet >= 60 * 60000) break; }
  }
  return since;
}
const sum = (points, key) => points.reduce((n, p) => n + (p[key] || 0), 0);

pages.overview = {
  title: () => 'Overview',
  shell: (r, state) => {
    state.range = localStorage.getItem('ojs.range') || 'hour';
    return html`<div id="content"><div class="loading">Loading…</div></div>`;
  },
  async load(r, state) {
    const day = state.range === 'day';
    const [stats, queues, hour, dayHistory, top, groups] = await Promise.all([
      get('/stats'), get('/queues'),
      get('/stats/history' + query({ period: '1m', since: isoAgo(3600e3) })),
      get('/stats/history' + query({ period: '5m', since: isoAgo(86400e3) })),
      get('/stats/top-failing' + query({ since: isoAgo(day ? 86400e3 : 3600e3) })),
      get('/dead-letter/groups')
    ]);
    return { stats, queues, hour: historyPoints(hour, 60e3), day: historyPoints(dayHistory, 300e3), top, groups };
  },
  view(d, r, state) {
    const jobs = d.stats.jobs || {};
    const day = state.range === 'day';
    const points = day ? d.day : d.hour;
    const failedHour = sum(d.hour, 'failed'); const processedHour = sum(d.hour, 'processed');
    const since = failingSince(d.day.length ? d.day : d.hour);
    const top = (d.top.items || []).slice(0, 6);
    const groups = (d.groups.items || []).slice(0, 6);
    const tp = d.stats.throughput || {};
    const kpi = (label, value, cls, href, sub) => html`<a class="card kpi ${cls}" href="${href}"><div class="label">${label}</div><div class="value" data-kpi="${label}">${num(value)}</div>${sub ? html`<div class="sub">${sub}</div>` : ''}</a>`;
    return html`
      ${incident(failedHour, processedHour, since, top, jobs.dead_letter || 0)}
      <div class="grid kpis">
        ${kpi('Available', jobs.available, '', '#/jobs?state=available', 'ready to run')}
        ${kpi('Active', jobs.active, '', '#/jobs?state=active', 'running now')}
        ${kpi('Scheduled', jobs.scheduled, '', '#/jobs?state=scheduled', 'waiting for their time')}
        ${kpi('Retryable', jobs.retryable, jobs.retryable ? 'warn' : '', '#/jobs?state=retryable', 'will be retried')}
        ${kpi('Dead letters', jobs.dead_letter, jobs.dead_letter ? 'danger' : '', '#/dead-letters', 'need a human')}
        ${kpi('Completed', jobs.completed, 'ok', '#/jobs?state=completed', 'kept by retention')}
        <div class="card kpi"><div class="label">Throughput</div><div class="value">${rate(tp.processed_per_minute)}<small class="muted">/min</small></div><div class="sub">${rate(tp.failed_per_minute)}/min failed · 5 min avg</div></div>
      </div>
      <div class="grid two">
        <div class="card"><div class="card-head"><h2>Throughput</h2>
          <div class="seg" role="tablist"><button type="button" data-act="range" data-range="hour" class="${day ? '' : 'on'}">Last hour</button><button type="button" data-act="range" data-range="day" class="${day ? 'on' : ''}">Last 24 hours</button></div></div>
          <div class="card-body">${chart({ points, kind: day ? 'lines' : 'bars', series: [{ key: 'completed', label: 'completed', cls: 'a' }, { key: 'failed', label: 'failed attempts', cls: 'b' }] })}
          <div class="chart-foot"><div class="legend"><span><i class="s-available"></i>completed</span><span><i class="s-dead"></i>failed attempts</span></div><span class="muted">${num(sum(points, 'processed'))} processed · per ${day ? '5 minutes' : 'minute'}</span></div></div></div>
        <div class="card"><div class="card-head"><h2>Failure rate</h2><span class="muted">${pct(sum(points, 'processed') ? sum(points, 'failed') / sum(points, 'processed') : null)} of attempts failed · ${num(sum(points, 'dead_lettered'))} dead-lettered</span></div>
          <div class="card-body">${chart({ points, kind: 'lines', yFormat: (v) => Math.round(v * 100) + '%', floor: 0.05, series: [{ key: 'rate', label: 'of attempts failed', cls: 'b', format: pct }] })}
          <div class="chart-foot"><div class="legend"><span><i class="s-dead"></i>failed ÷ processed</span></div><span class="muted">${day ? 'last 24 hours' : 'last hour'}</span></div></div></div>
      </div>
      <div class="grid two">
        <div class="card"><div class="card-head"><h2>Top failing job types</h2><span class="muted">${day ? 'last 24 hours' : 'last hour'}</span></div>
          <div class="table-wrap"><table><thead><tr><th>Job type</th><th>Last error</th><th class="num">Failed</th><th>Last</th></tr></thead><tbody>
          ${top.length ? top.map((t) => html`<tr class="click" data-href="#/jobs${query({ type: t.type, queue: t.queue, error_type: t.last_error_type })}"><td><b>${t.type}</b><span class="sub">${t.queue}</span></td><td>${t.last_error_type ? html`<span class="errtype">${t.last_error_type}</span>` : '–'}</td><td class="num"><b>${num(t.failed)}</b></td><td class="nowrap">${timeAgo(t.last_failed_at)}</td></tr>`) : emptyRow(4, 'No failures in this period')}
          </tbody></table></div></div>
        <div class="card"><div class="card-head"><h2>Dead letters by cause</h2><a href="#/dead-letters">All groups →</a></div>
          <div class="table-wrap"><table><thead><tr><th>Error type</th><th>Job type</th><th class="num">Count</th><th>Since</th></tr></thead><tbody>
          ${groups.length ? groups.map((g) => html`<tr class="click" data-href="#/dead-letters${query({ error_type: g.error_type, type: g.type, queue: g.queue })}"><td><span class="errtype">${g.error_type || 'unknown'}</span></td><td>${g.type}<span class="sub">${g.queue}</span></td><td class="num"><b>${num(g.count)}</b></td><td class="nowrap">${timeAgo(g.oldest_at)}</td></tr>`) : emptyRow(4, 'The dead letter queue is empty')}
          </tbody></table></div></div>
      </div>
      ${queueTable(d.queues.items || [], false)}`;
  }
};

function incident(failed, processed, since, top, dead) {
  if (!failed) {
    return html`<section class="incident" id="incident"><div class="sign">✓</div><div><h2>No failed attempts in the last hour</h2>
      <p>${dead ? html`${num(dead)} dead letter${dead === 1 ? '' : 's'} still wait for a decision — <a href="#/dead-letters">review them</a>.` : 'Nothing waits in the dead letter queue.'}</p></div></section>`;
  }
  return html`<section class="incident bad" id="incident"><div class="sign">!</div><div>
    <h2>${num(failed)} failed attempt${failed === 1 ? '' : 's'} in the last hour (${pct(processed ? failed / processed : null)} of ${num(processed)})</h2>
    <p>Failing since <b>${since ? when(since.toISOString()) : 'within the hour'}</b>${since ? html` (${timeAgo(since.toISOString())})` : ''}${dead ? html` · <a href="#/dead-letters">${num(dead)} dead letters</a>` : ''}</p>
    <ul>${top.slice(0, 3).map((t) => html`<li><span class="errtype">${t.last_error_type || 'error'}</span><a href="#/jobs${query({ type: t.type, error_type: t.last_error_type })}"><b>${t.type}</b></a><span class="muted">in ${t.queue} · ${num(t.failed)} failed · last ${ago(t.last_failed_at)}</span></li>`)}</ul>
  </div></section>`;
}

/** Active jobs against a queue's concurrency limit on all nodes, when it has one. */
function runningAgainstLimit(active, concurrency) {
  return concurrency ? html`<span class="sub concurrency" title="active jobs against the concurrency limit on all nodes">${num(active || 0)} of ${num(concurrency)} running</span>` : '';
}

function queueTable(queues, actions) {
  const canWrite = actions && writable();
  return html`<div class="card"><div class="card-head"><h2>Queues</h2><div class="legend"><span><i class="s-available"></i>available</span><span><i class="s-active"></i>active</span><span><i class="s-scheduled"></i>scheduled</span><span><i class="s-retryable"></i>retryable</span><span><i class="s-dead"></i>dead letters</span></div></div>
    <div class="table-wrap"><table id="queues-table"><thead><tr><th>Queue</th><th>State</th><th class="num">Available</th><th class="num">Active</th><th class="num">Scheduled</th><th class="num">Retryable</th><th class="num">Dead</th><th>Backlog</th><th class="num" title="average over the last 5 minutes">Per minute</th><th class="num" title="age of the oldest ready job">Latency</th>${canWrite ? html`<th></th>` : ''}</tr></thead><tbody>
    ${queues.length ? queues.map((q) => {
      const c = q.counts || {};
      const total = (c.available || 0) + (c.active || 0) + (c.scheduled || 0) + (c.retryable || 0) + (c.dead_letter || 0);
      const seg = (n, cls) => (n ? html`<span class="${cls}" style="width:${((100 * n) / total).toFixed(2)}%"></span>` : '');
      const tp = q.throughput || {};
      return html`<tr data-queue="${q.name}"><td><a href="#/jobs${query({ queue: q.name })}"><b>${q.name}</b></a></td>
        <td>${q.paused ? html`${badge('paused', 'paused')}<span class="sub">${q.paused_at ? 'since ' + ago(q.paused_at) : ''}</span>` : badge('running', 'active')}${q.rate_limit ? html`<span class="sub rate-limit" title="rate limit on all nodes">≤ ${num(q.rate_limit.limit)} per ${duration(q.rate_limit.period_ms).trim()}</span>` : ''}${runningAgainstLimit(c.active, q.concurrency)}</td>
        <td class="num">${num(c.available)}</td><td class="num">${num(c.active)}</td><td class="num">${num(c.scheduled)}</td><td class="num">${num(c.retryable)}</td><td class="num">${c.dead_letter ? html`<b class="badge danger plain">${num(c.dead_letter)}</b>` : '0'}</td>
        <td><div class="stackbar">${seg(c.available, 's-available')}${seg(c.active, 's-active')}${seg(c.scheduled, 's-scheduled')}${seg(c.retryable, 's-retryable')}${seg(c.dead_letter, 's-dead')}</div></td>
        <td class="num nowrap">${rate(tp.processed_per_minute)}<span class="sub ${tp.failed_per_minute ? 'fail-rate' : ''}">${rate(tp.failed_per_minute)} failed</span></td>
        <td class="num nowrap" title="age of the oldest ready job">${q.latency_ms === null || q.latency_ms === undefined ? '–' : duration(q.latency_ms)}</td>
        ${canWrite ? html`<td><div class="actions">${q.paused
          ? html`<button class="btn sm primary" type="button" data-act="queue" data-op="resume" data-name="${q.name}">▶ Resume</button>`
          : html`<button class="btn sm" type="button" data-act="queue" data-op="pause" data-name="${q.name}">❚❚ Pause</button>`}<button class="btn sm" type="button" data-act="limit" data-name="${q.name}" data-concurrency="${q.concurrency || ''}" title="concurrency limit on all nodes">Limit…</button></div></td>` : ''}</tr>`;
    }) : emptyRow(canWrite ? 11 : 10, 'No queue has held a job yet', '▤')}
    </tbody></table></div></div>`;
}

/** The job types with limits on all nodes: running against the limit, the limit per key, and the Limit… control. */
function typeLimitTable(limits) {
  const canWrite = writable();
  return html`<div class="card" id="type-limits"><div class="card-head"><h2>Job type limits</h2>${canWrite ? html`<button class="btn sm" type="button" data-act="type-limit" data-type="" id="type-limit-add" title="limit a job type on all nodes">+ Limit a type…</button>` : ''}</div>
    <div class="table-wrap"><table id="type-limits-table"><thead><tr><th>Job type</th><th>Running on all nodes</th><th>Per key</th>${canWrite ? html`<th></th>` : ''}</tr></thead><tbody>
    ${limits.length ? limits.map((l) => html`<tr data-type="${l.type}"><td><a href="#/jobs${query({ type: l.type })}"><b>${l.type}</b></a></td>
      <td class="nowrap"><span class="concurrency" title="active jobs against the concurrency limit on all nodes">${num(l.active || 0)} ${l.concurrency ? html`of ${num(l.concurrency)} running` : html`running <span class="muted">· no limit</span>`}</span></td>
      <td class="nowrap">${l.concurrency_per_key ? html`<span class="per-key" title="active jobs of one concurrency key at once, on all nodes">at most ${num(l.concurrency_per_key)} per key</span>` : html`<span class="muted">–</span>`}</td>
      ${canWrite ? html`<td><div class="actions"><button class="btn sm" type="button" data-act="type-limit" data-type="${l.type}" data-concurrency="${l.concurrency || ''}" data-per-key="${l.concurrency_per_key || ''}" title="limits of this type on all nodes">Limit…</button></div></td>` : ''}</tr>`)
      : emptyRow(canWrite ? 4 : 3, html`No job type has a limit. <code>@OjsJob(globalConcurrency, globalConcurrencyPerKey)</code> sets one${canWrite ? html`; so does <b>Limit a type…</b>` : '.'}`, '∞')}
    </tbody></table></div></div>`;
}

pages.queues = {
  title: () => 'Queues',
  async load() {
    // the page shows the queues without the type limits when they cannot be read
    const [queues, limits] = await Promise.all([get('/queues'), get('/limits').catch(() => null)]);
    return { ...queues, limits };
  },
  view: (d) => html`${queueTable(d.items || [], true)}${d.limits ? typeLimitTable(d.limits.items || []) : ''}`
};

/* Jobs: filters in the hash, keyset paging by cursor, live counts. */
const RANGES = { '15m': 15 * 60e3, '1h': 3600e3, '24h': 86400e3, '7d': 7 * 86400e3 };
pages.jobs = {
  title: () => 'Jobs',
  shell(r, state) {
    const p = r.params;
    state.cursors = [];
    const opt = (v, label, sel) => html`<option value="${v}" ${sel === v ? raw('selected') : ''}>${label}</option>`;
    return html`<div class="card" id="jobs-card">
      <div class="chips" id="state-chips"></div>
      <form class="filters" id="filters" autocomplete="off">
        <label>Queue<select name="queue" id="f-queue"><option value="">All queues</option>${p.queue ? opt(p.queue, p.queue, p.queue) : ''}</select></label>
        <label>Type<input name="type" value="${p.type || ''}" placeholder="email.send or email.*"></label>
        <label>Error type<input name="error_type" value="${p.error_type || ''}" placeholder="java.io.IOException"></label>
        <label>Created<select name="range">${opt('', 'Any time', p.range || '')}${opt('15m', 'Last 15 minutes', p.range)}${opt('1h', 'Last hour', p.range)}${opt('24h', 'Last 24 hours', p.range)}${opt('7d', 'Last 7 days', p.range)}${opt('custom', 'Between…', p.range)}</select></label>
        <label class="${p.range === 'custom' ? '' : 'hidden'}" data-custom>From<input type="datetime-local" name="since" value="${p.since || ''}"></label>
        <label class="${p.range === 'custom' ? '' : 'hidden'}" data-custom>To<input type="datetime-local" name="until" value="${p.until || ''}"></label>
        <label>Job id<input name="id" value="${p.id || ''}" placeholder="019…" class="mono"></label>
        <input type="hidden" name="state" value="${p.state || ''}">
        <div class="buttons"><button class="btn primary" type="submit" id="apply">Filter</button><button class="btn ghost" type="button" data-act="clear-filters">Clear</button></div>
      </form>
      <div id="content"><div class="loading">Loading…</div></div></div>`;
  },
  bind(r, state) {
    const form = $('#filters');
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      go('jobs', Object.fromEntries(new FormData(form)));
    });
    form.range.addEventListener('change', () => form.querySelectorAll('[data-custom]').forEach((el) => el.classList.toggle('hidden', form.range.value !== 'custom')));
    form.queue.addEventListener('change', () => form.requestSubmit());
    get('/queues').then((d) => {
      const sel = $('#f-queue');
      if (!sel) return;
      const names = (d.items || []).map((q) => q.name).filter((n) => n !== r.params.queue);
      sel.insertAdjacentHTML('beforeend', names.map((n) => `<option value="${esc(n)}">${esc(n)}</option>`).join(''));
    }).catch(() => {});
  },
  filter(p) {
    const f = { state: p.state, queue: p.queue, type: p.type, error_type: p.error_type, id: p.id };
    if (RANGES[p.range]) f.since = isoAgo(RANGES[p.range]);
    if (p.range === 'custom') {
      if (p.since) f.since = new Date(p.since).toISOString();
      if (p.until) f.until = new Date(p.until).toISOString();
    }
    return f;
  },
  async load(r, state) {
    const f = this.filter(r.params);
    const cursor = state.cursors[state.cursors.length - 1];
    const [list, counts] = await Promise.all([
      get('/jobs' + query({ ...f, cursor, per_page: 25 })),
      f.queue ? get('/queues/' + encodeURIComponent(f.queue)).then((q) => q.counts).catch(() => null) : get('/stats').then((s) => s.jobs)
    ]);
    return { list, counts: counts || {}, filter: f };
  },
  view(d, r, state) {
    const p = r.params;
    const chips = [html`<button type="button" class="chip ${p.state ? '' : 'on'}" data-act="state" data-state="">All</button>`]
      .concat(STATES.map((s) => html`<button type="button" class="chip ${p.state === s ? 'on' : ''}" data-act="state" data-state="${s}">${s.replace('_', ' ')}<b data-count="${s}">${num(d.counts[s] || 0)}</b></button>`));
    $('#state-chips').innerHTML = part(chips);
    const items = d.list.items || [];
    const pg = d.list.pagination || {};
    state.next = d.list.next_cursor;
    const bulk = writable() && items.length && (p.state || p.queue || p.type || p.error_type);
    return html`<div class="table-wrap"><table id="jobs-table"><thead><tr><th>Job</th><th>State</th><th>Queue</th><th class="num">Attempt</th><th>Last error</th><th>Created</th><th>Next retry</th></tr></thead><tbody>
      ${items.length ? items.map((j) => html`<tr class="click" data-href="#/jobs/${encodeURIComponent(j.id)}" data-job="${j.id}">
        <td><b>${j.type}</b><span class="sub mono">${j.id}</span></td><td>${badge(jobState(j))}</td><td>${j.queue}</td>
        <td class="num">${j.attempt}/${j.max_attempts}</td>
        <td>${j.last_error ? html`<span class="errtype">${j.last_error.type}</span><span class="sub">${j.last_error.message}</span>` : html`<span class="muted">–</span>`}</td>
        <td class="nowrap">${timeAgo(j.created_at)}</td><td class="nowrap">${j.next_retry_at ? countdown(j.next_retry_at) : html`<span class="muted">–</span>`}</td></tr>`)
        : emptyRow(7, 'No job matches these filters', '∅')}
      </tbody></table></div>
      <div class="pager"><span id="jobs-total">${pg.total === null || pg.total === undefined ? '' : html`${pg.total_is_estimate ? html`<span title="an estimate: an exact count would be slow">≈ </span>` : ''}${num(pg.total)} job${pg.total === 1 ? '' : 's'}${pg.total_is_estimate ? ' (estimate)' : ''}`}
        ${bulk ? html` · <button class="btn sm" type="button" data-act="bulk" data-op="retry">Retry matching…</button> <button class="btn sm" type="button" data-act="bulk" data-op="cancel">Cancel matching…</button> <button class="btn sm danger" type="button" data-act="bulk" data-op="delete">Delete matching…</button>` : ''}</span>
        <span class="actions"><button class="btn sm" type="button" data-act="page" data-dir="first" ${state.cursors.length ? '' : raw('disabled')}>⇤ Newest</button><button class="btn sm" type="button" data-act="page" data-dir="prev" ${state.cursors.length ? '' : raw('disabled')}>← Previous</button><button class="btn sm" type="button" data-act="page" data-dir="next" ${d.list.next_cursor ? '' : raw('disabled')}>Next →</button></span></div>`;
  }
};

pages.job = {
  title: () => 'Job',
  async load(r) {
    const job = await get('/jobs/' + encodeURIComponent(r.id));
    // the queue's concurrency limit, shown beside the queue; the job shows without it
    const queue = await get('/queues/' + encodeURIComponent(job.queue)).catch(() => null);
    // and its type's limits on all nodes, when it has some
    const limits = await get('/limits').catch(() => null);
    const typeLimit = ((limits && limits.items) || []).find((l) => l.type === job.type) || null;
    return { ...job, queue_view: queue, type_limit: typeLimit };
  },
  notFound: (r) => html`<div class="card"><div class="empty"><span class="big">∅</span>No job <code>${r.id}</code>. It may have been pruned by retention.<br><br><a href="#/jobs">Back to jobs</a></div></div>`,
  view(j) {
    const m = j.metadata || {};
    const state = jobState(j);
    const actions = writable() ? (j.actions || []) : [];
    const errors = (j.errors || []).slice().sort((a, b) => (a.attempt || 0) - (b.attempt || 0));
    const events = [];
    if (m.created_at) events.push({ at: m.created_at, cls: '', what: html`Created`, body: html`in queue <b>${j.queue}</b>${j.priority ? html`, priority ${j.priority}` : ''}` });
    if (m.scheduled_at && m.scheduled_at !== m.created_at) events.push({ at: m.scheduled_at, cls: 'wait', what: html`Scheduled`, body: '' });
    errors.forEach((e) => events.push({ at: e.occurred_at || e.timestamp, cls: 'fail', what: html`Attempt ${e.attempt} failed <span class="errtype">${e.type}</span>${e.code ? badge('neutral', e.code) : ''}`, body: html`<div class="msg">${e.message}</div>${e.details && Object.keys(e.details).length ? jsonView(e.details) : ''}` }));
    if (m.started_at) events.push({ at: m.started_at, cls: 'start', what: html`Attempt ${j.attempt} started`, body: j.locked_by ? html`on <code>${j.locked_by}</code>` : '' });
    if (m.completed_at) events.push({ at: m.completed_at, cls: 'ok', what: html`Completed on attempt ${j.attempt}`, body: '' });
    if (m.cancelled_at) events.push({ at: m.cancelled_at, cls: '', what: html`Cancelled`, body: '' });
    if (m.discarded_at) events.push({ at: m.discarded_at, cls: 'fail', what: j.dead_letter ? html`Moved to the dead letter queue` : html`Discarded`, body: '' });
    if (j.next_retry_at && (j.state === 'retryable' || j.state === 'scheduled')) events.push({ at: j.next_retry_at, cls: 'wait', what: html`Next attempt ${countdown(j.next_retry_at)}`, body: '' });
    events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const btn = { retry: html`<button class="btn primary" type="button" data-act="job" data-op="retry" data-id="${j.id}">↻ Retry now</button>`,
      cancel: html`<button class="btn" type="button" data-act="job" data-op="cancel" data-id="${j.id}">✕ Cancel</button>`,
      delete: html`<button class="btn danger" type="button" data-act="job" data-op="delete" data-id="${j.id}">Delete</button>` };
    const policy = j.retry_policy || {};
    return html`<a class="back" href="#/jobs">← Jobs</a>
      <div class="detail-head"><div><h2>${j.type} ${badge(state)}</h2><div class="id" id="job-id">${j.id}</div></div>
        <div class="actions" id="job-actions">${actions.map((a) => btn[a] || '')}</div></div>
      <div class="grid two">
        <div class="card"><h2>Details</h2><div class="card-body"><dl class="props">
          <dt>Queue</dt><dd id="job-queue"><a href="#/jobs${query({ queue: j.queue })}">${j.queue}</a>${j.queue_view && j.queue_view.configuration ? runningAgainstLimit((j.queue_view.counts || {}).active, j.queue_view.configuration.concurrency) : ''}</dd>
          ${j.type_limit ? html`<dt>Type limit</dt><dd id="job-type-limit">${j.type_limit.concurrency ? runningAgainstLimit(j.type_limit.active, j.type_limit.concurrency) : ''}${j.type_limit.concurrency_per_key ? html`<span class="sub per-key" title="active jobs of one concurrency key at once, on all nodes">at most ${num(j.type_limit.concurrency_per_key)} per key</span>` : ''}</dd>` : ''}
          <dt>Attempt</dt><dd>${j.attempt} of ${j.max_attempts}</dd>
          <dt>Next retry</dt><dd>${j.next_retry_at ? html`${countdown(j.next_retry_at)} <span class="muted">(${when(j.next_retry_at)})</span>` : '–'}</dd>
          <dt>Priority</dt><dd>${j.priority}</dd>
          <dt>Created</dt><dd>${when(m.created_at)} <span class="muted">${timeAgo(m.created_at)}</span></dd>
          ${m.started_at ? html`<dt>Started</dt><dd>${when(m.started_at)}</dd>` : ''}
          ${m.completed_at ? html`<dt>Completed</dt><dd>${when(m.completed_at)}</dd>` : ''}
          ${m.discarded_at ? html`<dt>${j.dead_letter ? 'Dead-lettered' : 'Discarded'}</dt><dd>${when(m.discarded_at)}</dd>` : ''}
          ${m.cancelled_at ? html`<dt>Cancelled</dt><dd>${when(m.cancelled_at)}</dd>` : ''}
          ${j.locked_by && j.state === 'active' ? html`<dt>Held by</dt><dd><code>${j.locked_by}</code>${j.locked_until ? html` until ${when(j.locked_until)}` : ''}</dd>` : ''}
          ${j.unique_key ? html`<dt>Unique key</dt><dd><code>${j.unique_key}</code></dd>` : ''}
          <dt>Retry policy</dt><dd class="mono">${Object.entries(policy).map(([k, v]) => html`${k}=${Array.isArray(v) ? v.join(',') || '[]' : v} `)}</dd>
        </dl></div></div>
        <div class="card"><h2>Arguments</h2><div class="card-body" id="job-args">${j.args_hidden
          ? html`<div class="hidden-args">Hidden: <code>ojs.dashboard.show-args=false</code> keeps arguments and meta on the server.</div>`
          : html`${jsonView(j.args)}${j.meta && Object.keys(j.meta).length ? html`<div class="muted" style="margin:12px 0 6px">Meta</div>${jsonView(j.meta)}` : ''}`}</div></div>
      </div>
      <div class="card"><h2>Timeline <span class="muted">${errors.length} error${errors.length === 1 ? '' : 's'}</span></h2><div class="card-body">
        <ol class="timeline" id="timeline">${events.map((e) => html`<li class="${e.cls}"><div class="when">${when(e.at)} · ${timeAgo(e.at)}</div><div class="what">${e.what}</div>${e.body}</li>`)}</ol></div></div>`;
  }
};

pages['dead-letters'] = {
  title: () => 'Dead letters',
  load: (r) => Promise.all([get('/dead-letter/groups'), get('/dead-letter' + query({ queue: r.params.queue, type: r.params.type, error_type: r.params.error_type, per_page: 25 }))]),
  view([groups, list], r) {
    const items = groups.items || [];
    const p = r.params;
    const filtered = p.queue || p.type || p.error_type;
    const jobs = list.items || [];
    return html`<div class="card"><div class="card-head"><h2>Grouped by error type × job type × queue</h2><span class="muted">${num(groups.total !== undefined ? groups.total : items.reduce((n, g) => n + g.count, 0))} dead letters in ${items.length} group${items.length === 1 ? '' : 's'}</span></div>
      <div class="table-wrap"><table id="groups-table"><thead><tr><th>Error type</th><th>Job type and sample message</th><th>Queue</th><th class="num">Count</th><th>First</th><th>Latest</th>${writable() ? html`<th></th>` : ''}</tr></thead><tbody>
      ${items.length ? items.map((g) => html`<tr class="click" data-href="#/dead-letters${query({ error_type: g.error_type, type: g.type, queue: g.queue })}" data-group="${g.error_type}|${g.type}|${g.queue}">
        <td><span class="errtype">${g.error_type || 'unknown'}</span></td><td><b>${g.type}</b><span class="sub" title="${g.sample_message || ''}">${g.sample_message || ''}</span></td><td>${g.queue}</td><td class="num"><b>${num(g.count)}</b></td>
        <td class="nowrap">${timeAgo(g.oldest_at)}</td><td class="nowrap">${timeAgo(g.newest_at)}</td>
        ${writable() ? html`<td><div class="actions"><button class="btn sm primary" type="button" data-act="dl-group" data-op="retry" data-queue="${g.queue}" data-type="${g.type}" data-error-type="${g.error_type || ''}">↻ Retry</button><button class="btn sm danger" type="button" data-act="dl-group" data-op="delete" data-queue="${g.queue}" data-type="${g.type}" data-error-type="${g.error_type || ''}">Delete</button></div></td>` : ''}</tr>`)
        : emptyRow(writable() ? 8 : 7, 'The dead letter queue is empty')}
      </tbody></table></div></div>
      <div class="card"><div class="card-head"><h2>${filtered ? html`Dead letters: ${[p.error_type, p.type, p.queue].filter(Boolean).join(' · ')}` : 'Latest dead letters'}</h2>${filtered ? html`<a href="#/dead-letters">Show all</a>` : ''}</div>
      <div class="table-wrap"><table><thead><tr><th>Job</th><th>Queue</th><th class="num">Attempts</th><th>Error</th><th>Dead-lettered</th></tr></thead><tbody>
      ${jobs.length ? jobs.map((j) => html`<tr class="click" data-href="#/jobs/${encodeURIComponent(j.id)}"><td><b>${j.type}</b><span class="sub mono">${j.id}</span></td><td>${j.queue}</td><td class="num">${j.attempt}/${j.max_attempts}</td>
        <td>${j.last_error ? html`<span class="errtype">${j.last_error.type}</span><span class="sub">${j.last_error.message}</span>` : '–'}</td><td class="nowrap">${timeAgo(j.discarded_at || j.completed_at || j.created_at)}</td></tr>`)
        : emptyRow(5, 'None')}</tbody></table></div></div>`;
  }
};

pages.recurring = {
  title: () => 'Recurring jobs',
  // without recurring jobs (ojs.cron off) the Admin API has no schedules endpoint
  load: () => get('/schedules').catch((e) => { if (e.status === 404) return { items: [], off: true }; throw e; }),
  view(d) {
    const items = d.items || [];
    if (d.off) return html`<div class="card"><div class="empty"><span class="big">↻</span>Recurring jobs are turned off in this application.</div></div>`;
    return html`<div class="card"><div class="table-wrap"><table id="schedules-table"><thead><tr><th>Schedule</th><th>Expression</th><th>State</th><th>Next run</th><th>Next five</th><th>Last run</th><th class="num">Runs</th>${writable() ? html`<th></th>` : ''}</tr></thead><tbody>
    ${items.length ? items.map((s) => html`<tr data-schedule="${s.name}"><td><b>${s.name}</b><span class="sub">${s.type}${s.queue ? ' → ' + s.queue : ''}${s.description ? ' · ' + s.description : ''}</span></td>
      <td><code>${s.expression}</code><span class="sub">${s.timezone || 'UTC'}${s.overlap ? ' · overlap ' + s.overlap : ''}</span></td>
      <td>${s.paused ? badge('paused') : (s.enabled === false ? badge('neutral', 'disabled') : badge('enabled', 'active'))}</td>
      <td class="nowrap">${s.paused ? html`<span class="muted">paused</span>` : countdown(s.next_run_at)}</td>
      <td><div class="fire-times">${(s.next_fire_times || []).slice(0, 5).map((t) => html`<span>${when(t)}</span>`)}</div></td>
      <td class="nowrap">${timeAgo(s.last_run_at)}${s.last_outcome ? html`<span class="sub">${s.last_outcome}</span>` : ''}</td><td class="num">${num(s.run_count)}</td>
      ${writable() ? html`<td><div class="actions">${s.paused
        ? html`<button class="btn sm primary" type="button" data-act="schedule" data-op="resume" data-name="${s.name}">▶ Resume</button>`
        : html`<button class="btn sm" type="button" data-act="schedule" data-op="pause" data-name="${s.name}">❚❚ Pause</button>`}
        <button class="btn sm" type="button" data-act="schedule" data-op="trigger" data-name="${s.name}">⚡ Run now</button></div></td>` : ''}</tr>`)
      : emptyRow(8, 'No recurring jobs. Declare one with @OjsRecurring.', '↻')}
    </tbody></table></div></div>`;
  }
};

/* Workflows: the list by state and type, keyset paged; a workflow with each step's job. */
const WORKFLOW_STATES = ['running', 'completed', 'failed', 'cancelled'];
const WORKFLOW_BADGE = { running: 'active', completed: 'completed', failed: 'discarded', cancelled: 'cancelled' };
const wfBadge = (state) => badge(WORKFLOW_BADGE[state] || state, state);
const wfCounts = (w) => (w.type === 'chain' ? [w.steps_total, w.steps_completed, w.steps_failed] : [w.jobs_total, w.jobs_completed, w.jobs_failed]);
pages.workflows = {
  title: () => 'Workflows',
  shell(r, state) { state.cursors = []; return html`<div id="content"><div class="loading">Loading…</div></div>`; },
  // without a JDBC store there are no workflows: the Admin API has no endpoint
  load: (r, state) => get('/workflows' + query({ state: r.params.state, type: r.params.type, cursor: state.cursors[state.cursors.length - 1], per_page: 25 }))
    .catch((e) => { if (e.status === 404) return { items: [], off: true }; throw e; }),
  view(d, r, state) {
    if (d.off) return html`<div class="card"><div class="empty"><span class="big">⇉</span>Workflows need the JDBC job store.</div></div>`;
    const p = r.params;
    const items = d.items || [];
    state.next = d.next_cursor;
    const chip = (key, value, label) => html`<a class="chip ${(p[key] || '') === value ? 'on' : ''}" href="#/workflows${query({ ...p, [key]: value || undefined })}">${label}</a>`;
    return html`<div class="card" id="workflows-card"><div class="chips">${chip('state', '', 'All')}${WORKFLOW_STATES.map((s) => chip('state', s, s))}
        <span class="muted">·</span>${chip('type', '', 'Any type')}${['chain', 'group', 'batch'].map((t) => chip('type', t, t))}</div>
      <div class="table-wrap"><table id="workflows-table"><thead><tr><th>Workflow</th><th>Type</th><th>State</th><th>Progress</th><th>Created</th><th>Finished</th></tr></thead><tbody>
      ${items.length ? items.map((w) => {
        const [total, done, failed] = wfCounts(w);
        return html`<tr class="click" data-href="#/workflows/${encodeURIComponent(w.id)}" data-workflow="${w.id}"><td><b>${w.name || w.type}</b><span class="sub mono">${w.id}</span></td>
          <td>${w.type}</td><td>${wfBadge(w.state)}</td>
          <td><div class="stackbar">${done ? html`<span class="s-available" style="width:${((100 * done) / total).toFixed(2)}%"></span>` : ''}${failed ? html`<span class="s-dead" style="width:${((100 * failed) / total).toFixed(2)}%"></span>` : ''}</div><span class="sub">${num(done)} of ${num(total)} done${failed ? html`, ${num(failed)} failed` : ''}</span></td>
          <td class="nowrap">${timeAgo(w.created_at)}</td><td class="nowrap">${timeAgo(w.finished_at)}</td></tr>`;
      }) : emptyRow(6, 'No workflow matches', '⇉')}
      </tbody></table></div>
      <div class="pager"><span id="workflows-total">${num((d.pagination || {}).total)} workflow${(d.pagination || {}).total === 1 ? '' : 's'}</span>
        <span class="actions"><button class="btn sm" type="button" data-act="page" data-dir="first" ${state.cursors.length ? '' : raw('disabled')}>⇤ Newest</button><button class="btn sm" type="button" data-act="page" data-dir="prev" ${state.cursors.length ? '' : raw('disabled')}>← Previous</button><button class="btn sm" type="button" data-act="page" data-dir="next" ${d.next_cursor ? '' : raw('disabled')}>Next →</button></span></div></div>`;
  }
};

pages.workflow = {
  title: () => 'Workflow',
  load: (r) => get('/workflows/' + encodeURIComponent(r.id)),
  notFound: (r) => html`<div class="card"><div class="empty"><span class="big">∅</span>No workflow <code>${r.id}</code>. It is pruned once its jobs are.<br><br><a href="#/workflows">Back to workflows</a></div></div>`,
  view(w) {
    const [total, done, failed] = wfCounts(w);
    const steps = (w.steps || w.jobs || []).map((s) => ({ ...s, label: '#' + s.index }));
    Object.entries(w.callbacks || {}).forEach(([name, s]) => steps.push({ ...s, label: name }));
    const took = (s) => (s.started_at && s.ended_at ? duration(Date.parse(s.ended_at) - Date.parse(s.started_at)) : '–');
    return html`<a class="back" href="#/workflows">← Workflows</a>
      <div class="detail-head"><div><h2>${w.name || w.type} ${wfBadge(w.state)}</h2><div class="id" id="workflow-id">${w.id}</div></div>
        <div class="actions" id="workflow-actions">${writable() && w.state === 'running' ? html`<button class="btn" type="button" data-act="workflow" data-op="cancel" data-id="${w.id}">✕ Cancel workflow</button>` : ''}</div></div>
      <div class="grid kpis"><div class="card kpi"><div class="label">Type</div><div class="value">${w.type}</div></div>
        <div class="card kpi ok"><div class="label">Completed</div><div class="value">${num(done)}<small class="muted"> of ${num(total)}</small></div></div>
        <div class="card kpi ${failed ? 'danger' : ''}"><div class="label">Failed</div><div class="value">${num(failed)}</div></div>
        <div class="card kpi"><div class="label">Took</div><div class="value">${w.finished_at ? duration(Date.parse(w.finished_at) - Date.parse(w.created_at)) : html`<small class="muted">running</small>`}</div><div class="sub">created ${when(w.created_at)}${w.finished_at ? html`, finished ${when(w.finished_at)}` : ''}</div></div></div>
      <div class="card"><h2>${w.type === 'chain' ? 'Steps' : 'Jobs'}${w.callbacks ? ' and callbacks' : ''}</h2><div class="table-wrap"><table id="steps-table"><thead><tr><th></th><th>Job</th><th>State</th><th class="num">Attempt</th><th>Started</th><th>Took</th><th>Result or error</th></tr></thead><tbody>
      ${steps.map((s) => html`<tr class="click" data-href="#/jobs/${encodeURIComponent(s.job_id)}" data-step="${s.label}"><td class="mono">${s.label}</td>
        <td><b>${s.type}</b><span class="sub mono">${s.job_id}</span></td><td>${badge(s.job_state === 'discarded' || s.state === 'failed' ? 'discarded' : (s.job_state || s.state), s.state)}</td>
        <td class="num">${s.attempt !== undefined ? html`${s.attempt}/${s.max_attempts}` : '–'}</td><td class="nowrap">${timeAgo(s.started_at)}</td><td class="nowrap">${took(s)}</td>
        <td>${s.last_error && s.state !== 'completed' ? html`<span class="errtype">${s.last_error.type}</span><span class="sub">${s.last_error.message}</span>`
          : (s.result !== null && s.result !== undefined ? html`<code class="result">${JSON.stringify(s.result).slice(0, 120)}</code>` : html`<span class="muted">–</span>`)}</td></tr>`)}
      </tbody></table></div></div>`;
  }
};

pages.nodes = {
  title: () => 'Nodes',
  load: () => get('/workers'),
  view(d) {
    const items = d.items || [];
    const s = d.summary || {};
    return html`<div class="grid kpis"><div class="card kpi"><div class="label">Nodes</div><div class="value">${num(s.total !== undefined ? s.total : items.length)}</div></div>
      <div class="card kpi ok"><div class="label">Running</div><div class="value">${num(s.running)}</div></div>
      <div class="card kpi ${s.stale ? 'warn' : ''}"><div class="label">Stale</div><div class="value">${num(s.stale)}</div><div class="sub">no heartbeat for 3 intervals</div></div>
      <div class="card kpi"><div class="label">Running jobs</div><div class="value">${num(items.reduce((n, w) => n + (w.active_jobs || 0), 0))}</div></div></div>
      <div class="card"><div class="table-wrap"><table id="nodes-table"><thead><tr><th>Node</th><th>State</th><th>Queues</th><th class="num">Running jobs</th><th class="num">Concurrency</th><th>Started</th><th>Last heartbeat</th><th>Version</th></tr></thead><tbody>
      ${items.length ? items.map((w) => html`<tr data-node="${w.id}"><td><b class="mono">${w.id}</b><span class="sub">${[w.hostname, w.application, w.kind].filter(Boolean).join(' · ')}</span></td>
        <td>${badge(w.state)}</td><td>${(w.queues || []).map((q) => html`<span class="badge plain neutral">${q}</span> `)}</td>
        <td class="num">${num(w.active_jobs)}</td><td class="num">${num(w.concurrency)}</td><td class="nowrap">${timeAgo(w.started_at)}</td><td class="nowrap">${timeAgo(w.last_heartbeat_at)}</td><td>${w.version || '–'}</td></tr>`)
        : emptyRow(8, 'No worker has sent a heartbeat', '⬡')}</tbody></table></div></div>`;
  }
};

/* ---------- actions ---------- */
const actions = {
  range(el) { localStorage.setItem('ojs.range', el.dataset.range); current.state.range = el.dataset.range; refresh(); },
  state(el) { go('jobs', { ...current.route.params, state: el.dataset.state }); },
  'clear-filters'() { go('jobs', {}); },
  page(el) {
    const s = current.state;
    if (el.dataset.dir === 'next' && s.next) s.cursors.push(s.next);
    else if (el.dataset.dir === 'prev') s.cursors.pop();
    else if (el.dataset.dir === 'first') s.cursors = [];
    refresh();
  },
  async job(el) {
    const { op, id } = el.dataset;
    if (op === 'delete' && !(await confirmDialog({ title: 'Delete this job?', body: html`The job <code>${id}</code> and its error history are removed for good.`, confirm: 'Delete', danger: true }))) return;
    if (op === 'cancel' && !(await confirmDialog({ title: 'Cancel this job?', body: 'It will not run again. A running attempt finishes, but its outcome is ignored.', confirm: 'Cancel job', danger: true }))) return;
    const path = '/jobs/' + encodeURIComponent(id) + (op === 'delete' ? '' : '/' + op);
    const done = await run(op === 'retry' ? 'Job queued for a new attempt' : op === 'cancel' ? 'Job cancelled' : 'Job deleted',
      () => api(op === 'delete' ? 'DELETE' : 'POST', path));
    if (op === 'delete' && done !== null) go('jobs', {});
  },
  async workflow(el) {
    const { id } = el.dataset;
    if (!(await confirmDialog({ title: 'Cancel this workflow?', body: 'Its jobs that have not started are cancelled. Running ones finish, but never advance it.', confirm: 'Cancel workflow', danger: true }))) return;
    await run('Workflow cancelled', () => api('POST', '/workflows/' + encodeURIComponent(id) + '/cancel'));
  },
  async queue(el) {
    const { op, name } = el.dataset;
    await run(`Queue ${name} ${op === 'pause' ? 'paused' : 'resumed'}`, () => api('POST', '/queues/' + encodeURIComponent(name) + '/' + op));
  },
  async limit(el) {
    const { name, concurrency } = el.dataset;
    const { button, inputs } = await dialog({ title: html`Concurrency limit of ${name}`, focus: '#limit-input',
      body: html`<p>At most this many jobs of the queue run at once, on all nodes together (in-process and HTTP workers alike).</p>
        <label for="limit-input">Jobs at once, empty for no limit</label><input class="limit-input" id="limit-input" type="number" min="1" step="1" value="${concurrency}" placeholder="no limit">`,
      buttons: html`${concurrency ? html`<button class="btn danger" type="button" data-modal="clear" id="limit-clear">Remove limit</button>` : ''}<button class="btn primary" type="button" data-modal="ok" id="limit-save">Save</button>` });
    if (button === 'cancel') return;
    const entered = inputs['limit-input'].trim();
    // an empty field removes the limit too
    const value = button === 'clear' || entered === '' ? null : Number(entered);
    if (value !== null && !(Number.isInteger(value) && value >= 1)) { toast('A concurrency limit is a whole number of at least 1', 'error'); return; }
    await run(value === null ? `Queue ${name} has no concurrency limit` : `Queue ${name} runs at most ${num(value)} at once`,
      () => api('PUT', '/queues/' + encodeURIComponent(name) + '/config', { concurrency: value }));
  },
  async 'type-limit'(el) {
    const { concurrency, perKey } = el.dataset;
    const adding = !el.dataset.type;
    const { button, inputs } = await dialog({ title: adding ? 'Limit a job type' : html`Limits of ${el.dataset.type}`, focus: adding ? '#type-limit-type' : '#type-limit-input',
      body: html`<p>At most this many jobs of the type run at once, on all nodes together (in-process and HTTP workers alike), and at most this many of them with one concurrency key. A node whose <code>@OjsJob</code> sets other limits puts its own back when it starts.</p>
        ${adding ? html`<label for="type-limit-type">Job type</label><input class="limit-input" id="type-limit-type" type="text" autocomplete="off" placeholder="email.send" spellcheck="false">` : ''}
        <label for="type-limit-input">Jobs at once, empty for no limit</label><input class="limit-input" id="type-limit-input" type="number" min="1" step="1" value="${concurrency || ''}" placeholder="no limit">
        <label for="type-limit-per-key">Jobs at once per key, empty for no limit</label><input class="limit-input" id="type-limit-per-key" type="number" min="1" step="1" value="${perKey || ''}" placeholder="no limit">`,
      buttons: html`${concurrency || perKey ? html`<button class="btn danger" type="button" data-modal="clear" id="type-limit-clear">Remove limits</button>` : ''}<button class="btn primary" type="button" data-modal="ok" id="type-limit-save">Save</button>` });
    if (button === 'cancel') return;
    const type = adding ? (inputs['type-limit-type'] || '').trim() : el.dataset.type;
    if (!type) { toast('Name the job type to limit', 'error'); return; }
    // an empty field removes that limit
    const value = (id) => { const v = (inputs[id] || '').trim(); return button === 'clear' || v === '' ? null : Number(v); };
    const limits = { concurrency: value('type-limit-input'), concurrency_per_key: value('type-limit-per-key') };
    if (Object.values(limits).some((v) => v !== null && !(Number.isInteger(v) && v >= 1))) { toast('A concurrency limit is a whole number of at least 1', 'error'); return; }
    const said = [limits.concurrency && num(limits.concurrency) + ' at once', limits.concurrency_per_key && num(limits.concurrency_per_key) + ' per key'].filter(Boolean);
    await run(said.length ? `Job type ${type} runs at most ${said.join(', ')}` : `Job type ${type} has no limits`,
      () => api('PUT', '/limits/types/' + encodeURIComponent(type), limits));
  },
  async schedule(el) {
    const { op, name } = el.dataset;
    await run((res) => (op === 'trigger' ? `Triggered ${name}${res && res.job_id ? ': job ' + res.job_id : ''}` : `${name} ${op}d`),
      () => api('POST', '/schedules/' + encodeURIComponent(name) + '/' + op));
  },
  async 'dl-group'(el) {
    const { op, queue, type, errorType } = el.dataset;
    const filter = { queue, type, error_type: errorType || undefined };
    await bulkWithConfirm('/dead-letter/' + op, op, filter, html`Dead letters of <b>${type}</b> in <b>${queue}</b> failing with <span class="errtype">${errorType || 'unknown'}</span>`);
  },
  async bulk(el) {
    const f = pages.jobs.filter(current.route.params);
    delete f.id;
    await bulkWithConfirm('/jobs/bulk/' + el.dataset.op, el.dataset.op, f, html`Jobs matching the current filters`);
  }
};

/** A bulk action: first asks for the count (no confirm), shows it, then acts with confirm=true. */
async function bulkWithConfirm(path, op, filter, what) {
  let preview;
  try { preview = await api('POST', path, { filter, confirm: false }); } catch (e) { toast(e.message, 'error'); return; }
  const matched = preview.matched !== undefined ? preview.matched : preview.would_purge;
  if (!matched) { toast('Nothing matches any more'); refresh(); return; }
  const verb = { retry: 'Retry', delete: 'Delete', cancel: 'Cancel' }[op] || op;
  const ok = await confirmDialog({ title: `${verb} ${num(matched)} job${matched === 1 ? '' : 's'}?`, danger: op !== 'retry',
    body: html`<div class="big" id="confirm-count">${num(matched)}</div><p>${what}, counted just now.</p><p class="muted">${op === 'retry' ? 'They go back to available with their attempts reset; their error history is kept.' : op === 'delete' ? 'They are removed for good.' : 'They will not run.'}${matched > 10000 ? ' At most 10,000 are handled per request; run it again for the rest.' : ''}</p>`,
    confirm: `${verb} ${num(matched)}` });
  if (!ok) return;
  await run((r) => `${verb}: ${num(r.succeeded)} of ${num(r.matched)} done${r.failed ? ', ' + num(r.failed) + ' failed' : ''}${r.truncated ? ' — more remain, run it again' : ''}`,
    () => api('POST', path, { filter, confirm: true }));
}

document.addEventListener('click', (e) => {
  const el = e.target.closest('[data-act]');
  if (el) {
    e.preventDefault();
    const fn = actions[el.dataset.act];
    if (fn && !el.disabled) fn(el);
    return;
  }
  const row = e.target.closest('[data-href]');
  if (row && !e.target.closest('a, button, input, select')) location.hash = row.dataset.href;
});

/* ---------- live refresh, ticking times ---------- */
let live = localStorage.getItem('ojs.live') !== 'off';
function setLive(on) {
  live = on;
  localStorage.setItem('ojs.live', on ? 'on' : 'off');
  $('#live').classList.toggle('on', on);
  $('#live-label').textContent = on ? 'Live' : 'Paused';
}
setInterval(() => {
  document.querySelectorAll('[data-ago]').forEach((el) => { el.textContent = ago(el.dataset.ago); });
  document.querySelectorAll('[data-countdown]').forEach((el) => { el.textContent = countdownText(el.dataset.countdown); });
}, 1000);
setInterval(() => {
  const typing = document.activeElement && /INPUT|SELECT/.test(document.activeElement.tagName);
  if (live && !document.hidden && $('#modal').classList.contains('hidden') && !typing) refresh();
}, LIVE_MS);

async function start() {
  setLive(live);
  $('#live').addEventListener('click', () => setLive(!live));
  $('#refresh').addEventListener('click', () => refresh());
  try {
    config = await get('/system/config');
  } catch (e) {
    $('#banner').textContent = 'Could not reach the Admin API at ' + API + ': ' + e.message;
  }
  $('#readonly-badge').classList.toggle('hidden', writable());
  $('#node-info').innerHTML = part(html`${config.node_id ? html`<div>Node <code>${config.node_id}</code></div>` : ''}<div>OJS dashboard${config.version ? ' ' + config.version : ''}</div>`);
  window.addEventListener('hashchange', route);
  await route();
  document.body.dataset.ready = 'true';
}
start();
