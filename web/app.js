// The page's script (issue #16): editors, Run, the campaign table and the permalink, all
// talking to the JSON API of `litsat serve` (see README, "Serving the page").
// Plain JS with no build step and nothing fetched from elsewhere; viz.js (vendored) draws
// the DOT graphs the server returns.
"use strict";

const CUSTOM = "custom"; // the model menu's value for "custom cat"

// herd's default model per architecture (the first line of a litmus test), so that picking
// an example from the menu also picks a model that understands it.
const ARCH_MODEL = {
  X86: "tso", X86_64: "tso", AArch64: "aarch64", RISCV: "rvwmo",
  PPC: "power", ARM: "armv7", C: "c11",
};

const state = { tests: [], models: [] };

const $ = (id) => document.getElementById(id);

const modelLabel = (name) => (name === CUSTOM ? "custom cat" : name);

// ---- The API ------------------------------------------------------------------------------

// An error answered by the server, with its JSON error object (message, and for located
// errors input/line/col/kind).
class ApiError extends Error {
  constructor(status, error) {
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.error = error;
  }
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let json;
  try {
    json = await response.json();
  } catch (_) {
    throw new ApiError(response.status, { message: `HTTP ${response.status}: not JSON` });
  }
  if (!response.ok) throw new ApiError(response.status, json.error || {});
  return json;
}

// ---- Status line (also read by the browser test) -----------------------------------------

function setStatus(text, stateName) {
  const status = $("status");
  status.textContent = text;
  status.dataset.state = stateName;
}

// ---- Editors: line numbers and located errors ----------------------------------------------

function editorParts(input) {
  const root = document.querySelector(`.editor[data-input="${input}"]`);
  return {
    root,
    textarea: root.querySelector("textarea"),
    gutter: root.querySelector(".gutter"),
    band: root.querySelector(".error-band"),
    message: $(`${input}-error`),
  };
}

function updateGutter(input) {
  const { textarea, gutter } = editorParts(input);
  const lines = textarea.value.split("\n").length;
  let numbers = "";
  for (let i = 1; i <= lines; i++) numbers += i + "\n";
  gutter.textContent = numbers;
  syncScroll(input);
}

// The gutter and the error band scroll with the text; both sit outside the textarea.
function syncScroll(input) {
  const { textarea, gutter, band } = editorParts(input);
  gutter.scrollTop = textarea.scrollTop;
  band.style.transform = `translateY(${-textarea.scrollTop}px)`;
}

function setEditorText(input, text) {
  const { textarea } = editorParts(input);
  textarea.value = text;
  textarea.scrollTop = 0;
  clearError(input);
  updateGutter(input);
}

function setupEditor(input) {
  const { textarea } = editorParts(input);
  textarea.addEventListener("input", () => {
    // Lines move as one types, so an old error's place is no longer meaningful.
    clearError(input);
    updateGutter(input);
  });
  textarea.addEventListener("scroll", () => syncScroll(input));
  updateGutter(input);
}

function clearError(input) {
  const { root, band, message } = editorParts(input);
  root.classList.remove("has-error");
  band.hidden = true;
  message.hidden = true;
  message.textContent = "";
}

// Shows a 422 located error at its line in the editor it names: a band over the line, the
// caret put there, and the message under the editor.
function showLocatedError(error) {
  const input = error.input === "cat" ? "cat" : "test";
  if (input === "cat") $("cat-block").hidden = false;
  const { root, textarea, band, message } = editorParts(input);
  const line = Math.max(1, error.line || 1);
  const col = Math.max(1, error.col || 1);
  const where = error.kind === "limit" ? "" : `line ${line}, col ${col}: `;
  message.textContent = `${where}${error.message}`;
  message.hidden = false;
  root.classList.add("has-error");
  if (error.kind === "limit") return; // a limit is about the whole test, not one line
  const style = getComputedStyle(textarea);
  const lineHeight = parseFloat(style.lineHeight);
  band.style.top = `${parseFloat(style.paddingTop) + (line - 1) * lineHeight}px`;
  band.style.height = `${lineHeight}px`;
  band.hidden = false;
  const offset = offsetOf(textarea.value, line, col);
  textarea.setSelectionRange(offset, offset);
  // Scroll the line into view; the focus stays where the user left it.
  textarea.scrollTop = Math.max(0, (line - 3) * lineHeight);
  syncScroll(input);
}

function offsetOf(text, line, col) {
  const lines = text.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  const here = lines[line - 1] || "";
  return offset + Math.min(col - 1, here.length);
}

// ---- Menus ---------------------------------------------------------------------------------

// "x86/SB" → "x86"; tests are grouped by their folder under litmus/.
const groupOf = (name) => (name.includes("/") ? name.slice(0, name.lastIndexOf("/")) : "");

// The tests by folder, in menu order (the server sends them sorted).
function testsByGroup() {
  const groups = new Map();
  for (const test of state.tests) {
    const group = groupOf(test.name);
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(test);
  }
  return groups;
}

function fillTestMenu() {
  const menu = $("test-menu");
  for (const [group, tests] of testsByGroup()) {
    const optgroup = document.createElement("optgroup");
    optgroup.label = group || "litmus";
    for (const test of tests) optgroup.append(new Option(test.name, test.name));
    menu.append(optgroup);
  }
}

// A model file of the server's -I folders (a .cfg or .cat picked by name; its text stays
// on the server), rather than a bundled model.
const isFile = (name) => state.models.some((m) => m.name === name && m.file);

function fillModelMenu() {
  const menu = $("model-menu");
  for (const model of state.models) if (!model.file) menu.append(new Option(model.name, model.name));
  const files = state.models.filter((m) => m.file);
  if (files.length) {
    const optgroup = document.createElement("optgroup");
    optgroup.label = "model files (litsat serve -I)";
    for (const model of files) optgroup.append(new Option(model.name, model.name));
    menu.append(optgroup);
  }
  menu.append(new Option("custom cat", CUSTOM));
}

function archOf(text) {
  const match = /^\s*(\S+)/.exec(text);
  return match ? match[1] : "";
}

function chooseTest(name) {
  const test = state.tests.find((t) => t.name === name);
  if (!test) return;
  setEditorText("test", test.text);
  const model = ARCH_MODEL[archOf(test.text)];
  const chosen = $("model-menu").value;
  if (chosen !== CUSTOM && !isFile(chosen) && state.models.some((m) => m.name === model)) {
    $("model-menu").value = model;
    onModelChange();
  }
}

// Keeps the menu in step with the editor: it names the example only while the text is it.
function syncTestMenu() {
  const text = $("test-editor").value;
  const test = state.tests.find((t) => t.text === text);
  $("test-menu").value = test ? test.name : "";
}

let lastBundled = ""; // the bundled model chosen last, to start an empty cat editor from

function onModelChange() {
  const custom = $("model-menu").value === CUSTOM;
  const file = isFile($("model-menu").value);
  if (!custom && !file) lastBundled = $("model-menu").value;
  // Choosing "custom cat" with an empty editor starts it from the model just left, since
  // most custom models are small changes to a bundled one.
  const from = state.models.find((m) => m.name === lastBundled);
  if (custom && $("cat-editor").value === "" && from) setEditorText("cat", from.text);
  $("cat-block").hidden = !custom;
  $("edit-model").disabled = custom || file;
  fillCampaignModels();
}

// Copies the chosen bundled model into the cat editor, as a starting point for a variation.
function editModelAsCat() {
  const model = state.models.find((m) => m.name === $("model-menu").value);
  if (!model) return;
  setEditorText("cat", model.text);
  $("model-menu").value = CUSTOM;
  onModelChange();
  $("cat-editor").focus();
}

// ---- Run -------------------------------------------------------------------------------------

function modelChoice() {
  return $("model-menu").value === CUSTOM
    ? { cat: $("cat-editor").value }
    : { model: $("model-menu").value };
}

// "a, b c" → ["a", "b", "c"].
const names = (text) => text.split(/[\s,]+/).filter(Boolean);

// herd's -variant, -skipchecks and -unroll, as the API takes them; absent when unset.
function knobs() {
  const out = {};
  const variants = names($("variants").value);
  const skipchecks = names($("skipchecks").value);
  if (variants.length) out.variants = variants;
  if (skipchecks.length) out.skipchecks = skipchecks;
  if ($("unroll").value !== "") out.unroll = Number($("unroll").value);
  return out;
}

function requestBody() {
  const body = { test: $("test-editor").value, ...modelChoice(), ...knobs() };
  if ($("fast").checked) body.fast = true;
  return body;
}

let vizInstance; // viz.js compiles its wasm once; later renders reuse it
function viz() {
  if (!vizInstance) vizInstance = Viz.instance();
  return vizInstance;
}

// Draws the DOT as SVG; a graph that cannot be drawn says so in its box and in the status,
// and leaves the verdict and the texts, which are right, in place.
async function renderGraph(dot) {
  const graph = $("graph");
  graph.replaceChildren();
  if (!dot) return true;
  try {
    const svg = (await viz()).renderSVGElement(dot);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Execution graph");
    graph.append(svg);
    return true;
  } catch (err) {
    graph.textContent = `The graph could not be drawn: ${err.message}`;
    setStatus(`graph: ${err.message}`, "error");
    return false;
  }
}

function clearResults() {
  resetStepper();
  $("verdict").textContent = "…";
  $("verdict").className = "";
  $("verdict-detail").textContent = "";
  $("log").textContent = "";
  $("explain").textContent = "";
  $("graph").replaceChildren();
}

function showVerdict(check) {
  const verdict = $("verdict");
  verdict.textContent = check.observation || check.status;
  verdict.className = `obs-${(check.observation || "none").toLowerCase()}`;
  const [positive, negative] = check.witnesses || [0, 0];
  const parts = [check.kind];
  if (!check.fast) parts.push(`witnesses ${positive} positive, ${negative} negative`);
  parts.push(`${(check.states || []).length} states`);
  if (check.flags && check.flags.length) parts.push(`flags: ${check.flags.join(", ")}`);
  if (typeof check.time === "number") parts.push(`${(check.time * 1000).toFixed(1)} ms`);
  $("verdict-detail").textContent = parts.filter(Boolean).join(" · ");
}

let runCount = 0; // a newer run supersedes an older one still in flight

async function run() {
  const mine = ++runCount;
  clearError("test");
  clearError("cat");
  clearResults();
  setStatus("running…", "running");
  $("run").disabled = true;
  try {
    const body = requestBody();
    const [check, explain] = await Promise.all([api("/api/check", body), api("/api/explain", body)]);
    if (mine !== runCount) return;
    showVerdict(check);
    $("log").textContent = check.log || "";
    $("explain").textContent = explain.text || "";
    stepper.ran = { body, check, explain };
    const drawn = await renderGraph(explain.dot);
    if (mine !== runCount) return;
    setStepper();
    if (stepper.pending !== undefined) {
      const index = stepper.pending;
      stepper.pending = undefined;
      if (index >= 0) return step(index);
    }
    if (drawn) setStatus("done", "done");
  } catch (err) {
    if (mine !== runCount) return;
    $("verdict").textContent = "error";
    $("verdict").className = "obs-error";
    if (err instanceof ApiError && ["test", "cat"].includes(err.error.input)) showLocatedError(err.error);
    setStatus(err.message, "error");
  } finally {
    if (mine === runCount) $("run").disabled = false;
  }
}

// ---- Stepping through executions, as herd-www does -----------------------------------------

// index -1 is the run's explanation; 0, 1, … the executions /api/execution answers, in an
// order that is the same on every request for the same inputs.
const stepper = { ran: null, index: -1, more: true, pending: undefined, seq: 0 };

function resetStepper() {
  stepper.ran = null;
  stepper.index = -1;
  stepper.more = true;
  stepper.seq++;
  setStepper();
}

// How many executions the chosen kind has, from the run's counts (unknown under fast).
function executionCount() {
  const check = stepper.ran && stepper.ran.check;
  if (!check || check.fast || !check.witnesses) return null;
  const [positive, negative] = check.witnesses;
  if ($("exec-among").value === "all") return positive + negative;
  return /^\s*~?\s*forall/m.test(stepper.ran.body.test) ? negative : positive;
}

function setStepper() {
  const ran = Boolean(stepper.ran);
  $("exec-prev").disabled = !ran || stepper.index < 0;
  $("exec-next").disabled = !ran || !stepper.more;
  const count = executionCount();
  $("exec-label").textContent = stepper.index < 0
    ? "explanation"
    : `execution ${stepper.index + 1}${count === null ? "" : ` of ${count}`}`;
}

async function step(index) {
  if (!stepper.ran) return;
  const seq = ++stepper.seq;
  if (index < 0) {
    stepper.index = -1;
    stepper.more = true;
    $("explain").textContent = stepper.ran.explain.text || "";
    setStepper();
    await renderGraph(stepper.ran.explain.dot);
    setStatus("done", "done");
    return;
  }
  setStatus("stepping…", "running");
  $("exec-prev").disabled = true;
  $("exec-next").disabled = true;
  try {
    const answer = await api("/api/execution", { ...stepper.ran.body, index, among: $("exec-among").value });
    if (seq !== stepper.seq) return;
    if (!answer.execution) {
      stepper.more = false;
      setStepper();
      setStatus(index === 0 ? "No execution." : "No more executions.", "done");
      return;
    }
    stepper.index = index;
    stepper.more = answer.more;
    setStepper();
    $("explain").textContent = answer.execution.text;
    const drawn = await renderGraph(answer.execution.dot);
    if (drawn && seq === stepper.seq) setStatus("done", "done");
  } catch (err) {
    if (seq !== stepper.seq) return;
    setStepper();
    setStatus(err.message, "error");
  }
}

// ---- Permalink -------------------------------------------------------------------------------

// base64url of UTF-8, so that the fragment survives any test text (and needs no escaping).
function toBase64Url(text) {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(code) {
  const base64 = code.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

// The inputs as a fragment: #s=<base64url of {"test":…, "model":…} or {"test":…, "cat":…}>,
// with the campaign's choices ("campaign": {"tests", "models", "diff"}) when tests are ticked.
function permalink() {
  const inputs = { test: $("test-editor").value, ...modelChoice(), ...knobs() };
  if ($("fast").checked) inputs.fast = true;
  if (stepper.ran && stepper.index >= 0) {
    inputs.execution = stepper.index;
    inputs.among = $("exec-among").value;
  }
  const tests = campaignTests();
  if (tests.length) {
    inputs.campaign = { tests, models: campaignModels(), diff: [$("diff-a").value, $("diff-b").value] };
  }
  const url = new URL(location.href);
  url.hash = `s=${toBase64Url(JSON.stringify(inputs))}`;
  return url.href;
}

// Restores the inputs from the fragment; answers whether it asked to run at once (run=1).
function restoreFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const code = params.get("s");
  if (!code) return false;
  let inputs;
  try {
    inputs = JSON.parse(fromBase64Url(code));
  } catch (_) {
    setStatus("The link's inputs could not be read.", "error");
    return false;
  }
  setEditorText("test", String(inputs.test || ""));
  syncTestMenu();
  if (typeof inputs.cat === "string") {
    setEditorText("cat", inputs.cat);
    $("model-menu").value = CUSTOM;
  } else if (state.models.some((m) => m.name === inputs.model)) {
    $("model-menu").value = inputs.model;
  }
  $("fast").checked = Boolean(inputs.fast);
  const list = (v) => (Array.isArray(v) ? v.map(String).join(", ") : "");
  $("variants").value = list(inputs.variants);
  $("skipchecks").value = list(inputs.skipchecks);
  $("unroll").value = Number.isInteger(inputs.unroll) ? String(inputs.unroll) : "";
  $("exec-among").value = inputs.among === "outcome" ? "outcome" : "all";
  stepper.pending = Number.isInteger(inputs.execution) ? inputs.execution : undefined;
  onModelChange();
  if (inputs.campaign) restoreCampaign(inputs.campaign);
  return params.get("run") === "1";
}

function restoreCampaign({ tests = [], models = [], diff = [] }) {
  for (const input of document.querySelectorAll('input[name="campaign-test"]')) {
    input.checked = tests.includes(input.value);
  }
  for (const input of document.querySelectorAll('input[name="campaign-model"]')) {
    input.checked = models.includes(input.value);
  }
  fillDiffMenus();
  const ticked = campaignModels();
  if (ticked.includes(diff[0])) $("diff-a").value = diff[0];
  if (ticked.includes(diff[1])) $("diff-b").value = diff[1];
}

// Runs what a link asks for: the editors' inputs, and the campaign when it has tests.
function runFromLink() {
  run();
  if (campaignTests().length) runCampaign();
}

async function copyLink() {
  const link = permalink();
  history.replaceState(null, "", link);
  try {
    await navigator.clipboard.writeText(link);
    setStatus("Link copied.", "idle");
  } catch (_) {
    // Clipboard access needs a secure context or permission; the address bar has the link.
    setStatus("Link is in the address bar.", "idle");
  }
}

// ---- Campaign --------------------------------------------------------------------------------

function fillCampaignTests() {
  const box = $("campaign-tests");
  for (const [group, tests] of testsByGroup()) {
    const section = document.createElement("div");
    section.className = "check-group";
    const head = document.createElement("label");
    head.className = "group-head";
    const all = document.createElement("input");
    all.type = "checkbox";
    all.addEventListener("change", () => tickGroup(section, all.checked));
    head.append(all, ` ${group || "litmus"}/`);
    section.append(head);
    for (const test of tests) {
      const label = document.createElement("label");
      label.className = "check";
      const tick = document.createElement("input");
      tick.type = "checkbox";
      tick.value = test.name;
      tick.name = "campaign-test";
      label.append(tick, ` ${test.name.slice(group.length + (group ? 1 : 0))}`);
      section.append(label);
    }
    box.append(section);
  }
}

// A group's box ticks its visible tests only, so that a filter narrows what it ticks.
function tickGroup(section, checked) {
  for (const label of section.querySelectorAll("label.check")) {
    if (!label.hidden) label.querySelector("input").checked = checked;
  }
}

function filterCampaignTests() {
  const needle = $("campaign-filter").value.trim().toLowerCase();
  for (const input of document.querySelectorAll('input[name="campaign-test"]')) {
    input.parentElement.hidden = needle !== "" && !input.value.toLowerCase().includes(needle);
  }
}

// Models offered to the campaign: the bundled ones, and the custom cat while it is chosen.
function fillCampaignModels() {
  const box = $("campaign-models");
  const ticked = new Set(campaignModels());
  if (box.childElementCount === 0) ["sc", "tso"].forEach((m) => ticked.add(m));
  box.replaceChildren();
  const names = state.models.map((m) => m.name);
  if ($("model-menu").value === CUSTOM) names.push(CUSTOM);
  for (const name of names) {
    const label = document.createElement("label");
    label.className = "check";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.name = "campaign-model";
    input.value = name;
    input.checked = ticked.has(name);
    input.addEventListener("change", fillDiffMenus);
    label.append(input, ` ${modelLabel(name)}`);
    box.append(label);
  }
  fillDiffMenus();
}

function campaignTests() {
  return [...document.querySelectorAll('input[name="campaign-test"]:checked')].map((i) => i.value);
}

function campaignModels() {
  return [...document.querySelectorAll('input[name="campaign-model"]:checked')].map((i) => i.value);
}

function fillDiffMenus() {
  const models = campaignModels();
  [$("diff-a"), $("diff-b")].forEach((menu, i) => {
    const previous = menu.value;
    menu.replaceChildren(...models.map((m) => new Option(modelLabel(m), m)));
    menu.value = models.includes(previous) ? previous : models[Math.min(i, models.length - 1)] || "";
  });
}

function cellModel(name) {
  return name === CUSTOM ? { cat: $("cat-editor").value } : { model: name };
}

// Builds the table's skeleton first, so that cells fill in as their answers arrive.
function campaignTable(tests, models) {
  const table = $("campaign-table");
  const head = document.createElement("tr");
  for (const text of ["Test", ...models.map(modelLabel), diffHeading()]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    head.append(th);
  }
  const rows = tests.map((test) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    const open = document.createElement("button");
    open.type = "button";
    open.className = "link";
    open.textContent = test.name;
    open.title = "Open in the editor";
    open.addEventListener("click", () => {
      chooseTest(test.name);
      syncTestMenu();
      $("test-editor").focus();
    });
    th.append(open);
    tr.append(th);
    const cells = {};
    for (const model of models) {
      const td = document.createElement("td");
      td.textContent = "…";
      tr.append(td);
      cells[model] = td;
    }
    const diff = document.createElement("td");
    diff.className = "diff";
    tr.append(diff);
    return { test, tr, cells, diff };
  });
  const thead = document.createElement("thead");
  thead.append(head);
  const tbody = document.createElement("tbody");
  tbody.append(...rows.map((r) => r.tr));
  table.replaceChildren(thead, tbody);
  return rows;
}

let campaignRows = []; // the last campaign's rows, so that a new diff pair needs no rerun

function diffHeading() {
  return `diff ${modelLabel($("diff-a").value)} / ${modelLabel($("diff-b").value)}`;
}

function refreshDiffs() {
  const heading = $("campaign-table").querySelector("thead th:last-child");
  if (heading) heading.textContent = diffHeading();
  for (const row of campaignRows) {
    row.diff.textContent = "";
    row.tr.classList.remove("differs");
    showDiff(row, $("diff-a").value, $("diff-b").value);
  }
  if (campaignRows.length && !$("run-campaign").disabled) campaignSummary();
}

function campaignSummary() {
  const done = campaignRows.filter((r) => Object.keys(r.results).length === r.tr.cells.length - 2);
  const differing = campaignRows.filter((r) => r.tr.classList.contains("differs")).length;
  $("campaign-status").textContent =
    `${done.length} of ${campaignRows.length} tests answered; tests whose Observation ` +
    `differs between ${modelLabel($("diff-a").value)} and ${modelLabel($("diff-b").value)}: ${differing}`;
}

function showCell(td, result) {
  td.textContent = result.text;
  td.className = result.error ? "obs-error" : `obs-${result.text.toLowerCase()}`;
  if (result.error) td.title = result.error;
}

function showDiff(row, a, b) {
  const ra = row.results[a];
  const rb = row.results[b];
  if (!ra || !rb) return;
  const differs = a !== b && ra.text !== rb.text;
  row.diff.textContent = a === b ? "–" : differs ? `${ra.text} ≠ ${rb.text}` : "same";
  row.tr.classList.toggle("differs", differs);
}

async function checkCell(test, model) {
  try {
    const check = await api("/api/check", { test: test.text, ...cellModel(model), ...knobs(), fast: true });
    return { text: check.observation || check.status };
  } catch (err) {
    return { text: "error", error: err.message };
  }
}

// Runs jobs at most `width` at a time: the server answers with a few workers anyway, and
// with four requests at once (six with a run) some were seen to stall behind keep-alive
// connections, where two at a time did not.
async function pool(jobs, width) {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
}

async function runCampaign() {
  const names = new Set(campaignTests());
  const tests = state.tests.filter((t) => names.has(t.name));
  const models = campaignModels();
  if (tests.length === 0 || models.length === 0) {
    $("campaign-status").textContent = "Tick at least one test and one model.";
    return;
  }
  const rows = campaignTable(tests, models);
  campaignRows = rows;
  $("run-campaign").disabled = true;
  let done = 0;
  const total = rows.length * models.length;
  $("campaign-status").textContent = `0 of ${total} checks`;
  const jobs = [];
  for (const row of rows) {
    row.results = {};
    for (const model of models) {
      jobs.push(async () => {
        const result = await checkCell(row.test, model);
        row.results[model] = result;
        showCell(row.cells[model], result);
        showDiff(row, $("diff-a").value, $("diff-b").value);
        $("campaign-status").textContent = `${++done} of ${total} checks`;
      });
    }
  }
  $("campaign-status").dataset.state = "running";
  await pool(jobs, 2);
  campaignSummary();
  $("campaign-status").dataset.state = "done"; // for the browser test, as #status
  $("run-campaign").disabled = false;
}

// ---- Start -----------------------------------------------------------------------------------

function wire() {
  setupEditor("test");
  setupEditor("cat");
  $("test-menu").addEventListener("change", (e) => chooseTest(e.target.value));
  $("test-editor").addEventListener("input", syncTestMenu);
  $("model-menu").addEventListener("change", onModelChange);
  $("edit-model").addEventListener("click", editModelAsCat);
  $("run").addEventListener("click", run);
  $("exec-prev").addEventListener("click", () => step(stepper.index - 1));
  $("exec-next").addEventListener("click", () => step(stepper.index + 1));
  $("exec-among").addEventListener("change", () => step(-1));
  $("copy-link").addEventListener("click", copyLink);
  $("campaign-filter").addEventListener("input", filterCampaignTests);
  $("run-campaign").addEventListener("click", runCampaign);
  $("diff-a").addEventListener("change", refreshDiffs);
  $("diff-b").addEventListener("change", refreshDiffs);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      run();
    }
  });
  window.addEventListener("hashchange", () => {
    if (restoreFromFragment()) runFromLink();
  });
}

async function start() {
  // viz.js compiles its WebAssembly in the background: start now, while the lists load,
  // so that the first graph does not wait for it.
  viz().catch(() => {});
  wire();
  try {
    [state.tests, state.models] = await Promise.all([api("/api/tests"), api("/api/models")]);
  } catch (err) {
    setStatus(`Could not load the tests and models: ${err.message}`, "error");
    return;
  }
  fillTestMenu();
  fillModelMenu();
  fillCampaignTests();
  fillCampaignModels();
  // A first example, so that Run shows something at once; a link's inputs replace it.
  const first = state.tests.find((t) => t.name === "x86/SB") || state.tests[0];
  if (first) {
    chooseTest(first.name);
    syncTestMenu();
  }
  onModelChange();
  if (restoreFromFragment()) runFromLink();
}

start();
