#include "status_page.h"

namespace cuzk::server {
namespace {

// Everything the page needs is in this string. Text from the daemon (ids,
// error messages) is set through textContent, never parsed as HTML. /status
// lists unfinished jobs first, then the newest: the page keeps that order.
constexpr std::string_view kPage = R"HTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cuzk status</title>
<style>
  :root { --fg: #1d2330; --muted: #6b7280; --line: #e5e7eb; --bg: #f8fafc; --card: #ffffff;
          --busy: #16a34a; --idle: #9ca3af; --bad: #dc2626; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
         background: var(--bg); }
  header { display: flex; flex-wrap: wrap; gap: 24px; align-items: baseline; padding: 14px 20px;
           background: #111827; color: #f9fafb; }
  header h1 { font-size: 18px; margin: 0 12px 0 0; }
  header .stat b { font-size: 16px; }
  main { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 16px; padding: 16px 20px; }
  section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
  section.wide { grid-column: 1 / -1; }
  h2 { font-size: 15px; margin: 0 0 8px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { color: var(--muted); font-weight: 600; font-size: 12px; }
  .muted { color: var(--muted); }
  .pill { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; color: #fff; }
  .busy { background: var(--busy); } .idle { background: var(--idle); } .bad { background: var(--bad); }
  .tier-HOT { background: #ea580c; } .tier-WARM { background: #ca8a04; } .tier-COLD { background: #2563eb; }
  .tier-DEVICE { background: #7c3aed; }
  .meter { height: 10px; background: var(--line); border-radius: 5px; overflow: hidden; min-width: 120px; }
  .meter > div { height: 100%; background: #2563eb; }
  .dkey { margin-right: 12px; white-space: nowrap; }
  .part { display: flex; gap: 8px; align-items: center; }
  .plabel { flex: 0 0 190px; font-size: 12px; white-space: nowrap; }
  .bar { display: flex; flex: 1; height: 12px; min-width: 120px; border-radius: 3px; overflow: hidden;
         background: var(--line); }
  .bar > span { height: 100%; }
  .s-queue { background: #cbd5e1; } .s-admit { background: #fbbf24; } .s-prepare { background: #60a5fa; }
  .s-wait_worker { background: #a78bfa; } .s-prove { background: #16a34a; } .s-finalize { background: #0ea5e9; }
  .s-verify { background: #14b8a6; }
  .legend span { display: inline-block; margin-right: 10px; font-size: 12px; }
  .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; border-radius: 2px; }
  .error { color: var(--bad); white-space: pre-wrap; word-break: break-word; }
  /* The jobs table scrolls sideways on a narrow window instead of cutting off its last (age) column. */
  #jobs { overflow-x: auto; } td.age { white-space: nowrap; }
  #conn.bad { background: var(--bad); }
</style>
</head>
<body>
<header>
  <h1>cuzk</h1>
  <span class="stat">uptime <b id="uptime">-</b></span>
  <span class="stat">version <b id="version">-</b></span>
  <span class="stat">proofs <b id="completed">-</b> done, <b id="failed">-</b> failed, <b id="cancelled">-</b> cancelled</span>
  <span class="stat">memory <b id="memory">-</b></span>
  <span class="pill busy" id="conn">connecting</span>
</header>
<main>
  <section id="queue"><h2>Queue by priority</h2><table><thead><tr><th>priority</th><th>jobs waiting</th>
    <th>jobs running</th><th>partitions waiting</th></tr></thead><tbody></tbody></table></section>
  <section id="devices" class="wide"><h2>Devices and workers</h2><table><thead><tr><th>device</th><th>worker</th>
    <th>state</th><th>job</th><th>busy</th><th>memory</th></tr></thead><tbody></tbody></table></section>
  <section id="keys"><h2>Circuits and keys</h2><table><thead><tr><th>circuit</th><th>tier</th><th>size</th><th>refs</th>
    <th>loads</th><th>note</th></tr></thead><tbody></tbody></table></section>
  <section id="failures"><h2>Recent failures</h2><table><thead><tr><th>job</th><th>circuit</th><th>age</th>
    <th>error</th></tr></thead><tbody></tbody></table></section>
  <section id="jobs" class="wide"><h2>Jobs</h2>
    <div class="legend" id="legend"></div>
    <table><thead><tr><th>job</th><th>circuit</th><th>priority</th><th>state</th><th>partitions (stage times)</th>
      <th>age</th></tr></thead><tbody></tbody></table></section>
</main>
<script>
"use strict";
const STAGES = ["queue", "admit", "prepare", "wait_worker", "prove", "finalize", "verify"];
const STATE_STAGE = {queued: "queue", admitting: "admit", preparing: "prepare", waiting_worker: "wait_worker",
                     proving: "prove", finalizing: "finalize"};
const PRIORITIES = ["CRITICAL", "HIGH", "NORMAL", "LOW"];

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "title") e.title = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}
function bytes(n) {
  const u = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < u.length - 1) { n /= 1024; i++; }
  return (i ? n.toFixed(1) : n) + " " + u[i];
}
function secs(s) {
  if (s < 60) return s.toFixed(s < 10 ? 1 : 0) + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + Math.floor(s % 60) + " s";
  return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
}
function fill(id, rows, empty) {
  const body = document.querySelector("#" + id + " tbody");
  body.replaceChildren(...rows);
  if (!rows.length) body.append(el("tr", {}, el("td", {class: "muted", colspan: "6"}, empty)));
}
function partTotal(p) { return STAGES.reduce((a, s) => a + ((p.stage_ms || {})[s] || 0), 0); }
// One line per partition: its state, then its stage times as a bar on the
// job's common time scale (the slowest partition fills the width).
function stageBar(p, scale) {
  const ms = p.stage_ms || {};
  const total = partTotal(p);
  const bar = el("div", {class: "bar", "data-partition": String(p.index),
                        title: STAGES.map(s => s + " " + (ms[s] || 0).toFixed(0) + " ms").join(", ")});
  for (const s of STAGES) {
    if (!(ms[s] > 0) || !scale) continue;
    bar.append(el("span", {class: "s-" + s, style: "width:" + (100 * ms[s] / scale).toFixed(2) + "%"}));
  }
  // A running partition shows how long it has been in its present stage
  // ("proving 1200 ms" counts from the start of proving, not of the job);
  // an ended one its whole time.
  const stage = STATE_STAGE[p.state];
  const shown_ms = stage ? (ms[stage] || 0) : total;
  return el("div", {class: "part"}, el("span", {class: "muted plabel"}, "#" + p.index + " " + p.state +
                                                                      " " + shown_ms.toFixed(0) + " ms"), bar);
}
function partitions(j) {
  const scale = Math.max(0, ...j.partitions.map(partTotal));
  const shown = j.partitions.slice(0, 32).map(p => stageBar(p, scale));
  if (j.partitions.length > 32) shown.push(el("div", {class: "muted"}, "... " + (j.partitions.length - 32) + " more"));
  return shown;
}
function jobState(j) { return j.state === "done" ? j.outcome : j.state; }
function pct(f) { return (100 * (f || 0)).toFixed(1) + "%"; }
function meter(fraction, title) {
  const w = Math.min(100, Math.max(0, 100 * (fraction || 0))).toFixed(1) + "%";
  return el("div", {class: "meter", title: title || w}, el("div", {style: "width:" + w}));
}
// A GPU's memory: used of the engine's budget as a meter, total and peak
// beside it; the CPU backend (no device memory) proves in host memory.
function deviceMemory(d, m) {
  if (!d || !(d.vram_total_bytes > 0)) return "host memory " + bytes(m.budget_used_bytes);
  const text = "VRAM " + bytes(d.vram_used_bytes) + " / " + bytes(d.vram_budget_bytes) + " (total " +
               bytes(d.vram_total_bytes) + ", peak " + bytes(d.vram_peak_bytes) +
               (d.key_budget_bytes > 0 ? ", keys up to " + bytes(d.key_budget_bytes) : "") + "), " +
               bytes(d.bytes_uploaded || 0) + " uploaded";
  const used = d.vram_budget_bytes > 0 ? d.vram_used_bytes / d.vram_budget_bytes : 0;
  return el("div", {"data-vram": d.name}, meter(used, text), text);
}
// The keys resident on the device (DEVICE tier) and its fallbacks by
// cause, each as a row under the device when there are any.
function deviceExtras(d) {
  const rows = [];
  if (d && d.keys && d.keys.length)
    rows.push(el("tr", {"data-device-keys": d.name}, el("td", {}, ""), el("td", {colspan: "5"}, "keys: ",
        ...d.keys.map(k => el("span", {class: "dkey", "data-device-key": k.circuit_id, title: k.placement || ""},
            k.circuit_id + " " + bytes(k.device_bytes) + " ",
            el("span", {class: "pill " + (k.in_use ? "busy" : "idle")}, k.in_use ? "in use" : "idle " + secs(k.idle_s)))))));
  const causes = Object.entries((d && d.fallbacks) || {});
  if (causes.length)
    rows.push(el("tr", {"data-device-fallbacks": d.name}, el("td", {}, ""),
        el("td", {colspan: "5", class: "error"}, "fallbacks: " + causes.map(([c, n]) => c + " " + n).join(", "))));
  return rows;
}
function deviceRows(s) {
  const details = s.device_status || [];
  const devices = s.devices.length ? s.devices : [""];
  const rows = [];
  for (const name of devices) {
    const d = details.find(x => x.name === name);
    const ws = s.workers.filter(w => w.device === name);
    const busy = ws.some(w => w.state === "busy");
    const about = d && d.description && d.vram_total_bytes > 0 ? el("div", {class: "muted"}, d.description) : "";
    rows.push(el("tr", {"data-device": name}, el("td", {}, el("b", {}, name || "(host)"), about),
                 el("td", {}, ws.length + " worker(s)"),
                 el("td", {}, el("span", {class: "pill " + (busy ? "busy" : "idle")}, busy ? "busy" : "idle")),
                 el("td", {}, ""),
                 d ? el("td", {"data-busy-fraction": (d.busy_fraction || 0).toFixed(4)}, "busy " + pct(d.busy_fraction))
                   : el("td", {}, ""),
                 el("td", {}, deviceMemory(d, s.memory))));
    rows.push(...deviceExtras(d));
    for (const w of ws)
      rows.push(el("tr", {"data-worker": w.name}, el("td", {}, ""), el("td", {}, w.name),
                   el("td", {}, el("span", {class: "pill " + w.state}, w.state)), el("td", {}, w.job_id || ""),
                   el("td", {}, meter(w.busy_fraction, "busy " + pct(w.busy_fraction))), el("td", {}, "")));
  }
  return rows;
}
function render(s) {
  document.getElementById("uptime").textContent = secs(s.uptime_s);
  document.getElementById("version").textContent = s.version || "-";
  document.getElementById("completed").textContent = s.proofs.completed;
  document.getElementById("failed").textContent = s.proofs.failed;
  document.getElementById("cancelled").textContent = s.proofs.cancelled;
  const m = s.memory;
  document.getElementById("memory").textContent = bytes(m.budget_used_bytes) + " of " + bytes(m.budget_total_bytes) +
      " (peak " + bytes(m.budget_peak_bytes) + (m.pinned_idle_bytes > 0 ?
      "; " + bytes(m.pinned_idle_bytes) + " of it pinned buffers kept for reuse" : "") + ")";
  const live = s.jobs.filter(j => j.state !== "done");
  fill("queue", PRIORITIES.map(pr => {
    const js = live.filter(j => j.priority === pr);
    const waiting = js.filter(j => j.state === "queued").length;
    const parts = js.reduce((a, j) => a + j.partitions.filter(p => p.state === "queued" ||
                                                                  p.state === "admitting").length, 0);
    return el("tr", {"data-priority": pr}, el("td", {}, pr), el("td", {}, waiting), el("td", {}, js.length - waiting),
              el("td", {}, parts));
  }), "");
  fill("devices", deviceRows(s), "no devices");
  // Circuits still loading (with their step) or that failed to load (with
  // the reason) first, then the keys of the ready ones.
  const loads = (s.circuits || []).filter(c => c.state !== "ready").map(c =>
      el("tr", {"data-circuit": c.circuit_id, "data-state": c.state}, el("td", {}, c.circuit_id),
         el("td", {}, el("span", {class: "pill " + (c.state === "failed" ? "bad" : "busy")}, c.state)),
         el("td", {}, ""), el("td", {}, ""), el("td", {}, ""),
         el("td", {class: c.state === "failed" ? "error" : "muted"},
            c.state === "failed" ? c.error : c.step + " (" + secs(c.step_s) + ")")));
  fill("keys", loads.concat(s.keys.map(k => el("tr", {"data-key": k.circuit_id}, el("td", {}, k.circuit_id),
      el("td", {}, el("span", {class: "pill tier-" + k.tier}, k.tier)), el("td", {}, bytes(k.size_bytes)),
      el("td", {}, k.ref_count), el("td", {}, k.loads),
      el("td", {class: k.last_error ? "error" : "muted"}, k.loading ? "loading " + (100 * k.load_progress).toFixed(0) +
          "%" : k.last_error || (k.tier === "HOT" ? "idle " + secs(k.idle_s) : ""))))), "no circuits registered");
  fill("failures", s.jobs.filter(j => j.outcome === "FAILED").slice(0, 10).map(j =>
      el("tr", {"data-failed-job": j.job_id}, el("td", {}, j.job_id), el("td", {}, j.circuit_id || j.kind),
         el("td", {}, secs(j.age_s)), el("td", {class: "error"}, j.error_message))), "none");
  fill("jobs", s.jobs.slice(0, 50).map(j => el("tr", {"data-job": j.job_id}, el("td", {}, j.job_id),
      el("td", {}, j.circuit_id || j.kind, ...(j.sector ? [el("br"), el("span", {class: "muted", "data-sector": ""},
          "f0" + j.sector.miner_id + " sector " + j.sector.sector_number)] : [])), el("td", {}, j.priority),
      el("td", {}, el("span", {class: "pill " + (j.outcome === "FAILED" ? "bad" : j.state === "done" ? "idle" : "busy")},
                     jobState(j))),
      el("td", {}, ...partitions(j)), el("td", {class: "age"}, secs(j.age_s)))), "no jobs yet");
}
async function poll() {
  const conn = document.getElementById("conn");
  try {
    const r = await fetch("/status", {cache: "no-store"});
    if (!r.ok) throw new Error("HTTP " + r.status);
    render(await r.json());
    conn.textContent = "live"; conn.className = "pill busy";
  } catch (e) {
    conn.textContent = "no answer (" + e.message + ")"; conn.className = "pill bad";
  }
  setTimeout(poll, 1000);
}
document.getElementById("legend").replaceChildren(...STAGES.map(s => el("span", {}, el("i", {class: "s-" + s}), s)));
poll();
</script>
</body>
</html>
)HTML";

}  // namespace

std::string_view status_page_html() { return kPage; }

}  // namespace cuzk::server
