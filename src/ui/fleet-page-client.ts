/**
 * The fleet page's script, served as text from `/fleet/app.js` (the page's
 * CSP allows scripts from the page's own origin only). It reads the view,
 * renders it with `textContent` only (nothing from the database is ever
 * parsed as HTML), re-reads when the doorbell rings (a server-sent event for
 * each `NOTIFY`), and sends remote commands.
 */
export const FLEET_PAGE_SCRIPT = `
"use strict";
const state = { filter: { machine: "", state: "", harness: "" }, reading: false, again: false };

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

function query() {
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(state.filter)) if (value) params.set(key, value);
	return params.toString();
}

async function read() {
	if (state.reading) {
		state.again = true;
		return;
	}
	state.reading = true;
	try {
		const started = performance.now();
		const response = await fetch("/fleet/view?" + query(), { headers: { accept: "application/json" } });
		const view = await response.json();
		if (!response.ok) throw new Error(view.message || response.statusText);
		render(view);
		document.body.dataset.renderedAt = String(Date.now());
		document.body.dataset.readMs = String(Math.round(performance.now() - started));
	} catch (error) {
		document.getElementById("problem").textContent = "Could not read the fleet: " + error.message;
	} finally {
		state.reading = false;
		if (state.again) {
			state.again = false;
			read();
		}
	}
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
	read();
}

function button(label, machine, action, kind, target, harness) {
	return el("button", { type: "button", "data-action": action, "data-kind": kind, "data-target": target || machine, onclick: () => command(machine, action, kind, target, harness) }, label);
}

function progressText(progress) {
	return progress ? progress.done + "/" + progress.total + " done" : "plan unreadable";
}

function lastText(decision) {
	return decision ? decision.kind + " · " + decision.reason + (decision.detail ? ": " + decision.detail : "") : "no decision yet";
}

function render(view) {
	const counts = view.counts;
	document.getElementById("summary").textContent =
		view.machines.length + " machine" + (view.machines.length === 1 ? "" : "s") + " · " +
		counts["needs-person"] + " need a person · " + counts.stuck + " stuck · " + counts.rolling + " rolling · " + counts.done + " done";
	document.getElementById("connection").textContent = view.connection;
	const list = document.getElementById("machines");
	list.replaceChildren();
	for (const machine of view.machines) {
		const section = el("section", { class: "machine", "data-machine": machine.machine },
			el("h2", {}, machine.machine, " ", el("small", {}, "last shipped " + new Date(machine.lastSeen).toLocaleTimeString() +
				(machine.pendingCommands ? " · " + machine.pendingCommands + " command(s) not yet applied" : ""))),
			el("div", { class: "actions" }, button("Stop machine", machine.machine, "stop", "machine"), button("Turn on", machine.machine, "go", "machine")),
		);
		for (const worktree of machine.worktrees) {
			const w = worktree.view;
			const block = el("div", { class: "worktree", "data-worktree": worktree.id },
				el("h3", {}, worktree.root, w.stopped ? el("span", { class: "badge needs-person" }, " stopped by " + w.stopped.by) : null));
			for (const work of w.works) {
				const st = worktree.states.works[work.id] || "";
				block.append(el("div", { class: "row work", "data-work": work.id, "data-state": st },
					el("span", { class: "badge " + st }, st),
					el("b", {}, work.name), " ", el("span", {}, work.status + " · " + progressText(work.progress)),
					work.next ? el("span", { class: "next" }, " next: " + work.next) : null,
					el("div", { class: "last" }, lastText(work.lastDecision)),
					work.status === "paused" ? button("Resume", machine.machine, "resume", "work", work.id) : button("Pause", machine.machine, "pause", "work", work.id)));
				for (const session of work.sessions) {
					block.append(el("div", { class: "row session", "data-session": session.sessionId },
						"  " + session.harness + " " + session.sessionId + (session.stoppedBy ? " (stopped by " + session.stoppedBy + ")" : ""),
						session.stoppedBy ? button("Turn on", machine.machine, "go", "session", session.sessionId, session.harness) : button("Stop", machine.machine, "stop", "session", session.sessionId, session.harness)));
				}
			}
			for (const session of w.sessions) {
				const st = worktree.states.sessions[session.harness + ":" + session.sessionId] || "";
				block.append(el("div", { class: "row session", "data-session": session.sessionId, "data-state": st },
					el("span", { class: "badge " + st }, st),
					session.harness + " " + session.sessionId + " · its own list · " + session.counts.done + "/" + session.counts.total + " done",
					el("div", { class: "last" }, lastText(session.lastDecision)),
					session.stoppedBy ? button("Turn on", machine.machine, "go", "session", session.sessionId, session.harness) : button("Stop", machine.machine, "stop", "session", session.sessionId, session.harness)));
			}
			section.append(block);
		}
		list.append(section);
	}
	if (view.machines.length === 0) list.append(el("p", {}, "No machine matches."));
	const machines = document.getElementById("f-machine");
	const chosen = machines.value;
	machines.replaceChildren(el("option", { value: "" }, "every machine"), ...view.allMachines.map((name) => el("option", { value: name }, name)));
	machines.value = chosen;
}

function listen() {
	const source = new EventSource("/fleet/events");
	source.addEventListener("changed", () => read());
	// A reconnect may have missed a ring: read once more; a lost notification loses nothing.
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
