/**
 * The fleet page's script, served as text from `/fleet/app.js` (the page's
 * CSP allows scripts from the page's own origin only). It reads the view,
 * renders it with `textContent` only (nothing from the database is ever
 * parsed as HTML), re-reads when the doorbell rings (a server-sent event for
 * each `NOTIFY`), and sends remote commands.
 */
export const FLEET_PAGE_SCRIPT = `
"use strict";
// The machines shown, by name, as last read; a ring re-reads only the machines that rang.
const state = { filter: { machine: "", state: "", harness: "" }, machines: new Map(), connection: "", reading: false, again: null };

function el(tag, attrs, ...children) {
	const node = document.createElement(tag);
	for (const [key, value] of Object.entries(attrs || {})) {
		if (key === "onclick") node.addEventListener("click", value);
		else if (value !== undefined && value !== null) node.setAttribute(key, String(value));
	}
	for (const child of children) {
		if (child === null || child === undefined) continue;
		node.append(typeof child === "string" ? document.createTextNode(child) : child);
	}
	return node;
}

function query(only) {
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(state.filter)) if (value) params.set(key, value);
	if (only) {
		params.set("machine", only);
		params.set("part", "1");
	}
	return params.toString();
}

// "machines": null reads everything; a list reads only those machines (each its own small read).
async function read(machines) {
	const wanted = machines === undefined ? null : machines;
	if (state.reading) {
		if (wanted === null) state.again = true;
		else if (state.again !== true) {
			state.again = state.again || new Set();
			for (const name of wanted) state.again.add(name);
		}
		return;
	}
	state.reading = true;
	try {
		const started = performance.now();
		if (wanted === null) {
			const view = await fetchView(query());
			state.machines = new Map(view.machines.map((machine) => [machine.machine, machine]));
			state.connection = view.connection;
			fillMachines(view.allMachines);
			renderAll();
		} else {
			for (const name of new Set(wanted)) {
				if (state.filter.machine && state.filter.machine !== name) continue;
				const view = await fetchView(query(name));
				const machine = view.machines.find((one) => one.machine === name);
				if (machine) state.machines.set(name, machine);
				else state.machines.delete(name);
				// A machine that joined since the last whole read: the machine filter offers it too.
				const select = document.getElementById("f-machine");
				if (machine && !Array.from(select.options).some((option) => option.value === name)) {
					const names = Array.from(select.options).map((option) => option.value).filter(Boolean);
					fillMachines([...names, name].sort());
				}
				renderMachine(name);
			}
			renderSummary();
		}
		document.getElementById("problem").textContent = "";
		document.body.dataset.renderedAt = String(Date.now());
		document.body.dataset.readMs = String(Math.round(performance.now() - started));
		document.body.dataset.lastRead = wanted === null ? "*" : [...new Set(wanted)].join(" ");
	} catch (error) {
		document.getElementById("problem").textContent = "Could not read the fleet: " + error.message;
	} finally {
		state.reading = false;
		const again = state.again;
		state.again = null;
		if (again === true) read();
		else if (again) read([...again]);
	}
}

async function fetchView(params) {
	const response = await fetch("/fleet/view?" + params, { headers: { accept: "application/json" } });
	const view = await response.json();
	if (!response.ok) throw new Error(view.message || response.statusText);
	return view;
}

async function command(machine, action, kind, target, harness) {
	const body = { machine, action, targetKind: kind, target: target || null, harness: harness || null };
	const response = await fetch("/fleet/command", {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify(body),
	});
	const answer = await response.json();
	const note = document.getElementById("notice");
	note.textContent = answer.message;
	note.dataset.state = answer.ok ? "sent" : "refused";
	read([machine]);
}

function button(label, machine, action, kind, target, harness) {
	return el("button", { type: "button", "data-action": action, "data-kind": kind, "data-target": target || machine, onclick: () => command(machine, action, kind, target, harness) }, label);
}

function progressText(progress) {
	return progress ? progress.done + "/" + progress.total + " done" : "plan unreadable";
}

function lastText(last, tally) {
	const shown = last || (tally && tally.last);
	const text = shown ? shown.kind + " · " + shown.reason + (shown.detail ? ": " + shown.detail : "") : "no decision yet";
	return tally ? text + " · " + tally.nudges + " nudge" + (tally.nudges === 1 ? "" : "s") + " in " + tally.decisions + " decision" + (tally.decisions === 1 ? "" : "s") : text;
}

function sessionRow(machine, session) {
	return el("div", { class: "row session", "data-session": session.sessionId },
		"  " + session.harness + " " + session.sessionId + (session.stoppedBy ? " (stopped by " + session.stoppedBy + ")" : ""),
		session.stoppedBy ? button("Turn on", machine, "go", "session", session.sessionId, session.harness) : button("Stop", machine, "stop", "session", session.sessionId, session.harness));
}

function machineSection(machine) {
	const section = el("section", { class: "machine", "data-machine": machine.machine },
		el("h2", {}, machine.machine, " ", el("small", {}, "last shipped " + new Date(machine.lastSeen).toLocaleTimeString() +
			(machine.pendingCommands ? " · " + machine.pendingCommands + " command(s) not yet applied" : ""))),
		el("div", { class: "actions" }, button("Stop machine", machine.machine, "stop", "machine"), button("Turn on", machine.machine, "go", "machine")),
	);
	for (const w of machine.worktrees) {
		const block = el("div", { class: "worktree", "data-worktree": w.id },
			el("h3", {}, w.root, w.stopped ? el("span", { class: "badge needs-person" }, " stopped by " + w.stopped.by) : null));
		for (const work of w.works) {
			block.append(el("div", { class: "row work", "data-work": work.id, "data-state": work.state },
				el("span", { class: "badge " + work.state }, work.state),
				el("b", {}, work.name), " ", el("span", {}, work.status + " · " + progressText(work.progress)),
				work.next ? el("span", { class: "next" }, " next: " + work.next) : null,
				el("div", { class: "last" }, lastText(work.last, work.tally)),
				work.status === "paused" ? button("Resume", machine.machine, "resume", "work", work.id) : button("Pause", machine.machine, "pause", "work", work.id)));
			for (const session of work.sessions) block.append(sessionRow(machine.machine, session));
		}
		for (const session of w.sessions) {
			block.append(el("div", { class: "row session", "data-session": session.sessionId, "data-state": session.state },
				el("span", { class: "badge " + session.state }, session.state),
				session.harness + " " + session.sessionId + " · its own list · " + session.counts.done + "/" + session.counts.total + " done",
				el("div", { class: "last" }, lastText(session.last, session.tally)),
				session.stoppedBy ? button("Turn on", machine.machine, "go", "session", session.sessionId, session.harness) : button("Stop", machine.machine, "stop", "session", session.sessionId, session.harness)));
		}
		section.append(block);
	}
	return section;
}

function renderSummary() {
	const counts = { "needs-person": 0, stuck: 0, rolling: 0, done: 0 };
	for (const machine of state.machines.values()) for (const key of Object.keys(counts)) counts[key] += machine.counts[key];
	const n = state.machines.size;
	document.getElementById("summary").textContent =
		n + " machine" + (n === 1 ? "" : "s") + " · " +
		counts["needs-person"] + " need a person · " + counts.stuck + " stuck · " + counts.rolling + " rolling · " + counts.done + " done";
	document.getElementById("connection").textContent = state.connection;
	const list = document.getElementById("machines");
	const none = list.querySelector("p.none");
	if (n === 0 && !none) list.append(el("p", { class: "none" }, "No machine matches."));
	if (n > 0 && none) none.remove();
}

function renderAll() {
	const list = document.getElementById("machines");
	const fragment = document.createDocumentFragment();
	for (const machine of state.machines.values()) fragment.append(machineSection(machine));
	list.replaceChildren(fragment);
	renderSummary();
}

/** One machine's section again, in its place by name (or gone when the filter keeps nothing of it). */
function renderMachine(name) {
	const list = document.getElementById("machines");
	const old = Array.from(list.children).find((node) => node.dataset && node.dataset.machine === name);
	const machine = state.machines.get(name);
	if (!machine) {
		if (old) old.remove();
		return;
	}
	const fresh = machineSection(machine);
	if (old) {
		old.replaceWith(fresh);
		return;
	}
	const after = Array.from(list.querySelectorAll("section.machine")).find((node) => node.dataset.machine > name);
	list.insertBefore(fresh, after || null);
}

function fillMachines(names) {
	const machines = document.getElementById("f-machine");
	const chosen = machines.value;
	machines.replaceChildren(el("option", { value: "" }, "every machine"), ...names.map((name) => el("option", { value: name }, name)));
	machines.value = chosen;
}

function listen() {
	const source = new EventSource("/fleet/events");
	// A ring names the machines that shipped (null: any): only they are read again.
	source.addEventListener("changed", (event) => {
		let machines = null;
		try {
			machines = JSON.parse(event.data);
		} catch {
			machines = null;
		}
		read(Array.isArray(machines) ? machines : undefined);
	});
	// A reconnect may have missed a ring: read everything once more; a lost notification loses nothing.
	source.addEventListener("open", () => read());
}

for (const [id, key] of [["f-machine", "machine"], ["f-state", "state"], ["f-harness", "harness"]]) {
	document.getElementById(id).addEventListener("change", (event) => {
		state.filter[key] = event.target.value.trim();
		read();
	});
}
read();
listen();
`;
