/**
 * Keeps the fleet's read model fresh and tells every open page what changed:
 * one look every `intervalMs` (a look stats, and reads only what changed),
 * never two at once; a page gets the whole view when it connects, then only
 * the worktrees that changed and the new timeline lines.
 */
import type { Clock } from "../core/clock.js";
import type { Fleet, FleetChange } from "../engine/fleet.js";
import { dashboardView, timelineEntry, worktreeView } from "./view-model.js";
import type { DashboardView, LiveMessage } from "./view-types.js";

export type Listener = (message: LiveMessage) => void;

/** How long a view is reused while nothing changed: its clocks run in the page anyway. */
const VIEW_REUSE_MS = 1000;

export class LiveFleet {
	readonly fleet: Fleet;
	private readonly clock: Clock;
	private readonly intervalMs: number;
	private readonly listeners = new Set<Listener>();
	private timer: NodeJS.Timeout | null = null;
	private running: Promise<void> | null = null;
	private again = false;
	private closed = false;
	private changes = 0;
	private cached: { version: number; at: number; view: DashboardView } | null = null;
	/** Called with an error a look met; the loop goes on. */
	onError: (error: unknown) => void = () => {};

	constructor(fleet: Fleet, options: { clock: Clock; intervalMs: number }) {
		this.fleet = fleet;
		this.clock = options.clock;
		this.intervalMs = options.intervalMs;
	}

	/** Reads the fleet once and starts looking every `intervalMs`. */
	async start(): Promise<void> {
		await this.fleet.look();
		this.schedule();
	}

	/**
	 * The whole view; made once per version and second, so a page load (the
	 * page drawn by the server, then its script's `/api/view`) builds it once.
	 */
	view(): DashboardView {
		const now = this.clock.now();
		const cached = this.cached;
		if (cached && cached.version === this.version && now >= cached.at && now - cached.at < VIEW_REUSE_MS) {
			return cached.view;
		}
		const view = dashboardView(this.fleet.snapshot(), now, this.version);
		this.cached = { version: this.version, at: now, view };
		return view;
	}

	/** Changes seen so far; a page that has the view of this version needs only what comes after. */
	get version(): number {
		return this.changes;
	}

	subscribe(listener: Listener): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Looks now (after an action), or right after the look under way. */
	async lookNow(): Promise<void> {
		if (this.running) {
			this.again = true;
			await this.running;
			if (this.running) await this.running;
			return;
		}
		await this.runLook();
	}

	close(): void {
		this.closed = true;
		if (this.timer) clearTimeout(this.timer);
		this.listeners.clear();
	}

	private schedule(): void {
		if (this.closed) return;
		this.timer = setTimeout(() => {
			this.runLook().finally(() => this.schedule());
		}, this.intervalMs);
		this.timer.unref?.();
	}

	private runLook(): Promise<void> {
		const run = (async () => {
			try {
				do {
					this.again = false;
					this.publish(await this.fleet.look());
				} while (this.again && !this.closed);
			} catch (error) {
				this.onError(error);
			} finally {
				this.running = null;
			}
		})();
		this.running = run;
		return run;
	}

	private publish(change: FleetChange): void {
		if (change.index || change.removed.length > 0 || change.changed.length > 0 || change.fresh.length > 0) {
			this.changes++;
		}
		if (this.listeners.size === 0) return;
		const now = this.clock.now();
		if (change.index || change.removed.length > 0) {
			this.send({ type: "snapshot", view: this.view() });
			return;
		}
		for (const root of change.changed) {
			const data = this.fleet.worktree(root);
			if (data) this.send({ type: "worktree", now, worktree: worktreeView(data, now) });
		}
		if (change.fresh.length > 0) {
			this.send({ type: "timeline", now, entries: change.fresh.map((record) => timelineEntry(record, now)) });
		}
	}

	private send(message: LiveMessage): void {
		for (const listener of this.listeners) listener(message);
	}
}
