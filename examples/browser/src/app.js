// The page: a memory browser over an export file (kept in IndexedDB) or, served by `kenning
// serve` and signed in with a token, over a knowledge base of that server, which it reviews,
// forgets and revises through the API. It wires the views to whichever is open, to the policy
// worker and to the URL's view state. Every failure ends in the error banner, never in a blank
// page.
import { $ } from './views/dom.js';
import { parseExport, asImportedByHuman, ExportFileError, MAX_FILE_BYTES } from './format/export-file.js';
import { KnowledgeBase } from './retrieval/candidates.js';
import { startPolicyWorker } from './policy/client.js';
import { saveOpened, loadOpened, clearOpened } from './persist.js';
import { Api, LiveKnowledgeBase, servedByKenning, savedSession, saveSession, clearSession } from './live/session.js';
import { readState, writeState } from './url-state.js';
import { ListView } from './views/list-view.js';
import { GraphView } from './views/graph-view.js';
import { TurnView } from './views/turn-view.js';
import { ScanView } from './views/scan-view.js';
import { ReviewView } from './views/review-view.js';
import { DetailView } from './views/detail-view.js';
import { SettingsView } from './views/settings-view.js';

const state = { kb: null, policy: null, subjectKind: 'binary', name: null, live: null };
// The policy runs in a worker, which holds its own copy of the opened knowledge base for turns.
// Opened as a file, the page cannot load modules or workers: src/file-protocol.js says so.
const policy = location.protocol === 'file:' ? null : startPolicyWorker(new URL('../policy/kenning_policy.js', import.meta.url));
const graph = new GraphView();
const list = new ListView((memories, filter) => {
  graph.follow(memories, filter);
  if (filter) {
    writeState({
      q: filter.text, category: filter.category, scope: filter.scope === 'any' ? '' : filter.scope,
      badges: filter.badges.size === 4 ? '' : [...filter.badges].join(',') || 'none', inactive: filter.includeInactive ? '1' : '',
    });
  }
}, (id) => openDetail(id));
new TurnView(() => state);
const scan = new ScanView(() => state.policy);
const review = new ReviewView(() => state.live, (ids, message) => afterAction(ids, message), (id) => openDetail(id));
const settings = new SettingsView(() => state.live, (message) => notify(message));
const detail = new DetailView(
  () => ({ memories: state.kb?.memories ?? new Map(), live: state.live }),
  (ids, message) => afterAction(ids, message),
  () => {
    list.select(null);
    writeState({ memory: '' });
  },
  (id) => showInGraph(id),
);

function showError(message) {
  const banner = $('#error');
  banner.textContent = message;
  banner.hidden = false;
}
const clearError = () => {
  $('#error').hidden = true;
};
/** Says what an action did, until the next one. */
function notify(message) {
  const notice = $('#notice');
  notice.textContent = message;
  notice.hidden = !message;
}
window.addEventListener('error', (event) => showError(`Unexpected error: ${event.message}`));
window.addEventListener('unhandledrejection', (event) => showError(`Unexpected error: ${event.reason?.message ?? event.reason}`));

const TABS = () => [...document.querySelectorAll('#tabs button')].filter((tab) => !tab.hidden);
/** A view the URL asked for that is not there yet (Review before signing in): shown once it is. */
let requestedView = readState().tab ?? null;

function selectView(name) {
  if (TABS().some((tab) => tab.dataset.view === name)) requestedView = null;
  else name = 'list';
  for (const tab of document.querySelectorAll('#tabs button')) {
    const selected = tab.dataset.view === name;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  for (const view of document.querySelectorAll('.view')) view.hidden = view.id !== `view-${name}`;
  if (name === 'graph') graph.show();
  else graph.hide();
  if (name === 'review') review.render();
  if (name === 'settings') settings.render();
  writeState({ tab: name === 'list' ? '' : name });
}
for (const tab of document.querySelectorAll('#tabs button')) {
  tab.addEventListener('click', () => {
    requestedView = null;
    selectView(tab.dataset.view);
  });
}
// The tab list's keys (WAI-ARIA tabs): arrows move between tabs, Home and End to the ends.
$('#tabs').addEventListener('keydown', (event) => {
  const tabs = TABS();
  const at = tabs.indexOf(document.activeElement);
  if (at < 0) return;
  const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  const tab = tabs[(next + tabs.length) % tabs.length];
  tab.focus();
  selectView(tab.dataset.view);
});
const currentView = () => document.querySelector('#tabs [aria-selected="true"]').dataset.view;

/**
 * Shows `memories` (as `parseExport` returns them) as the open knowledge base: indexed, listed,
 * drawn and given to the policy worker for turns. An export file's memories (`fromFile`) are
 * listed as the file has them and given to turns as a human's import would hold them. Returns
 * the timings in milliseconds.
 */
function openMemories(memories, { label, subjectKind, fromFile = false }) {
  const started = performance.now();
  const kb = new KnowledgeBase(memories);
  const indexed = performance.now();
  state.kb = kb;
  state.subjectKind = ['binary', 'account', 'profile'].includes(subjectKind) ? subjectKind : 'binary';
  const centre = graph.chosen ? { centre: graph.chosen, hops: graph.hops } : null;
  graph.open(kb);
  const listMs = list.open(kb);
  list.select(detail.id);
  selectView(currentView());
  const timings = { indexMs: indexed - started, listMs, firstRenderMs: performance.now() - started };
  const posting = performance.now();
  policy?.open(fromFile ? asImportedByHuman(memories) : memories, { subjectKind: state.subjectKind })
    .catch((error) => showError(`The policy worker could not take ${label}: ${error.message}`));
  timings.postToWorkerMs = performance.now() - posting;
  $('#close-kb').disabled = false;
  restoreCentre(centre);
  return timings;
}

/** Opens an export's text (`bytes` long as a file): parsed, indexed and listed. */
function openText(name, text, bytes) {
  const started = performance.now();
  const file = parseExport(text, bytes);
  const parseMs = performance.now() - started;
  state.name = name;
  const timings = { parseMs, ...openMemories(file.memories, { label: name, subjectKind: file.subject.kind, fromFile: true }) };
  timings.firstRenderMs = performance.now() - started;
  const status = $('#kb-status');
  status.textContent = `${file.subject.kind} ${file.subject.label ?? file.subject.key} · ${file.memories.length} memories · from ${name} · ` +
    `read, indexed and listed in ${timings.firstRenderMs.toFixed(0)} ms`;
  status.dataset.timings = JSON.stringify(timings);
  return timings;
}

async function openFile(file) {
  clearError();
  if (file.size > MAX_FILE_BYTES) {
    showError(`${file.name}: the file is ${file.size} bytes; the page opens at most ${MAX_FILE_BYTES}.`);
    return;
  }
  if (state.live) signOut();
  let text;
  try {
    text = await file.text();
    openText(file.name, text, file.size);
  } catch (error) {
    showError(error instanceof ExportFileError ? `${file.name}: ${error.message}` : `${file.name}: could not be opened (${error.message})`);
    return;
  }
  try {
    await saveOpened(file.name, text, file.size);
  } catch (error) {
    showError(`${file.name} is open, but the browser would not keep it for the next visit (${error.message}).`);
  }
}

$('#open-file').addEventListener('change', (event) => {
  const [file] = event.target.files;
  if (file) openFile(file);
  event.target.value = '';
});

function closeKnowledgeBase(message) {
  state.kb = null;
  policy?.open(null).catch(() => {});
  graph.open(null);
  list.open(null);
  if (!$('#detail').hidden) detail.close();
  $('#kb-status').textContent = message;
  $('#close-kb').disabled = true;
}

$('#close-kb').addEventListener('click', async () => {
  if (state.live) {
    signOut();
    return;
  }
  await clearOpened();
  closeKnowledgeBase('No knowledge base open.');
});

// ---- Signed in to the server that served the page ----

/** The kind of subject a spec names, as the policy's turns need it. */
const kindOfSpec = (spec) => (spec.startsWith('account:') ? 'account' : spec.startsWith('profile:') ? 'profile' : 'binary');

function showSignedIn(live) {
  $('#sign-in').hidden = Boolean(live);
  $('#signed-in').hidden = !live;
  $('#tab-review').hidden = !live;
  $('#tab-settings').hidden = !live;
  $('#open-file-label').hidden = Boolean(live);
  if (live) {
    $('#live-who').textContent = `${live.grant.role} token ${live.grant.id}`;
    const select = $('#live-subject');
    select.replaceChildren(...live.grant.subjects.map((spec) => {
      const option = document.createElement('option');
      option.value = spec;
      option.textContent = spec;
      return option;
    }));
    select.value = live.api.subject;
    if (requestedView) selectView(requestedView);
  }
}

/** Reads the signed-in subject from the server; the first page paints the list. */
async function loadLive(live) {
  const status = $('#kb-status');
  const started = performance.now();
  let painted = null;
  status.textContent = `Reading ${live.api.subject}…`;
  delete status.dataset.ready;
  await live.load(async (done, total) => {
    if (state.live !== live) return;
    if (painted === null) {
      // The newest page is listed at once; the rest is read behind it and listed when complete.
      const timings = openMemories([...live.memories.values()], { label: live.api.subject, subjectKind: kindOfSpec(live.api.subject) });
      painted = performance.now() - started;
      status.dataset.timings = JSON.stringify({ ...timings, firstPaintMs: painted });
    }
    status.textContent = `${live.api.subject} · ${done} of ${total} memories read${done < total ? '…' : ''}`;
    // Let the page paint between pages.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  });
  if (state.live !== live) return;
  const timings = openMemories([...live.memories.values()], { label: live.api.subject, subjectKind: kindOfSpec(live.api.subject) });
  status.dataset.timings = JSON.stringify({ ...JSON.parse(status.dataset.timings ?? '{}'), allListedMs: performance.now() - started, lastRenderMs: timings.firstRenderMs, memories: live.memories.size });
  status.textContent = `${live.api.subject} · ${live.memories.size} memories · the newest listed in ${painted?.toFixed(0)} ms, all in ${(performance.now() - started).toFixed(0)} ms`;
  status.dataset.ready = 'true';
  if (live.isHuman) review.render();
}

async function signIn(token, subject) {
  clearError();
  const api = new Api(token.trim());
  let grant;
  try {
    grant = await api.whoami();
  } catch (error) {
    showError(error.status === 401 ? 'That token is not valid here (mistyped, or revoked).' : `Could not sign in: ${error.message}`);
    clearSession();
    return false;
  }
  if (grant.subjects.length === 0) {
    showError('That token reaches no subject.');
    return false;
  }
  api.subject = grant.subjects.includes(subject) ? subject : grant.subjects[0];
  const live = new LiveKnowledgeBase(api, grant);
  state.live = live;
  saveSession(api.token, api.subject);
  showSignedIn(live);
  try {
    await loadLive(live);
  } catch (error) {
    showError(`${api.subject} could not be read: ${error.message}`);
  }
  return true;
}

function signOut() {
  state.live = null;
  clearSession();
  showSignedIn(null);
  notify('');
  closeKnowledgeBase('Signed out. Sign in again, or open an export file.');
  selectView(currentView());
}

/** After an action: reads what it changed, shows the result at once, and says what it did. */
async function afterAction(ids, message) {
  const live = state.live;
  if (!live) return;
  try {
    await live.refresh(ids);
  } catch (error) {
    showError(`${message} The page could not read the result: ${error.message}`);
  }
  if (state.live !== live) return;
  openMemories([...live.memories.values()], { label: live.api.subject, subjectKind: kindOfSpec(live.api.subject) });
  $('#kb-status').textContent = `${live.api.subject} · ${live.memories.size} memories`;
  notify(message);
  if (currentView() === 'review' || live.isHuman) await review.render();
}

$('#sign-in').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $('#sign-in-token');
  if (await signIn(input.value, '')) input.value = '';
});
$('#sign-out').addEventListener('click', signOut);
$('#live-reload').addEventListener('click', () => state.live && loadLive(state.live).catch((error) => showError(error.message)));
$('#live-subject').addEventListener('change', async (event) => {
  const live = state.live;
  if (!live) return;
  await signIn(live.api.token, event.target.value);
});

// The graph's centre and hops go in the URL, and come back from it once a knowledge base is open.
document.addEventListener('graph-centre', ({ detail }) => writeState({ centre: detail.centre ?? '', hops: detail.hops === 1 ? '' : String(detail.hops) }));
let centreFromUrl = (() => {
  const { centre, hops } = readState();
  return centre ? { centre, hops: Number(hops ?? 1) } : null;
})();
/**
 * Centres the graph again after the knowledge base was opened anew (a page read, an action's
 * result): on the URL's centre until it has been found once, else on the centre chosen before.
 */
function restoreCentre(previous) {
  const wanted = centreFromUrl ?? previous;
  if (!wanted || !state.kb) return;
  graph.centreOn(wanted.centre, wanted.hops).then((found) => {
    if (found && centreFromUrl === wanted) centreFromUrl = null;
  });
}

/** Shows memory `id` in the graph: the graph tab, centred on it. */
function showInGraph(id) {
  requestedView = null;
  selectView('graph');
  graph.centreOn(`m:${id}`);
}

function openDetail(id) {
  list.select(id);
  writeState({ memory: String(id) });
  detail.open(id);
}

async function start() {
  const url = readState();
  list.setFilter({ q: url.q, category: url.category, scope: url.scope || undefined, badges: url.badges, inactive: url.inactive });
  const served = await servedByKenning();
  const session = served ? savedSession() : null;
  if (served) $('#sign-in').hidden = false;
  if (session) {
    await signIn(session.token, session.subject);
  } else {
    const saved = await loadOpened().catch(() => undefined);
    if (saved) {
      try {
        openText(saved.name, saved.text, saved.bytes);
      } catch (error) {
        showError(`The saved knowledge base could not be reopened: ${error.message}`);
      }
    }
  }
  selectView(url.tab ?? 'list');
  if (url.memory && Number.isSafeInteger(Number(url.memory))) openDetail(Number(url.memory));
  if (!policy) return;
  try {
    const info = await policy.describe();
    state.policy = policy;
    $('#policy-status').textContent = `Policy ${info.name} ${info.version} (contract ${info.contractVersion}), in a worker of this page`;
    $('#policy-status').dataset.ready = 'true';
    scan.scan();
  } catch (error) {
    showError(`The policy component could not be loaded: ${error.message}`);
  }
}
start();
