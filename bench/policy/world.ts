/**
 * The simulator: one coding session (and its subagents) played event by event
 * in simulated time. The agent, the user and the harness act from the
 * profile's scenario; the policy under test sees the harness events a plugin
 * would see, answers at each idle, and its nudges start turns. Ground truth
 * (what is really done, whether the user is owed a wait) stays here and only
 * feeds the measurements.
 *
 * Contract: `simulate` is a pure function of the profile, the seed and the
 * policy: no clock, no Math.random, no I/O.
 */
import { type Agent, type ChildSpec, type Item, type Step, type TurnPlan, toTodos, type UserIntent } from "./agent.js";
import { Subagent, subagentItems } from "./agents/subagent.js";
import { applyFaults } from "./harness-faults.js";
import { mergeList } from "./list-merge.js";
import type {
	HarnessEvent,
	IdleFacts,
	Outcome,
	Policy,
	PromptTraits,
	SimTodo,
	Spend,
	Truth,
	TurnSource,
} from "./model.js";
import { Rng, seedFrom } from "./prng.js";
import { CHILD_LIMIT_MS, type Profile, type Scenario } from "./profile.js";
import { EventQueue } from "./queue.js";
import {
	judgeOutcome,
	longestRun,
	type NudgeRecord,
	noViolations,
	type RunResult,
	type ViolationKind,
} from "./run-result.js";

export interface Caps {
	/** Idle events (all sessions): a policy that loops is charged up to here. */
	idles: number;
	decisions: number;
	simMs: number;
}

export const DEFAULT_CAPS: Caps = { idles: 200, decisions: 1000, simMs: 48 * 3_600_000 };

export interface SimulateInput {
	profile: Profile;
	seed: number;
	/** Builds the policy; `truth` is for the test oracle only. */
	makePolicy: (truth: () => Truth) => Policy;
	caps?: Caps;
}

interface Session {
	id: string;
	parent: Session | null;
	agentName: string;
	readOnly: boolean;
	agent: Agent;
	items: Item[];
	listWritten: boolean;
	phrase: string | null;
	turn: ActiveTurn | null;
	turns: number;
	idleSeq: number;
	/** idleSeq of the last idle a nudge was delivered for. */
	nudgedIdle: number;
	lastText: string | null;
	queued: Prompt[];
	context: number;
	/** Background subagents and jobs of this session still running. */
	running: number;
	pendingQuestion: boolean;
	latestIsCompaction: boolean;
	spec: ChildSpec | null;
	reported: boolean;
	/** When it started (for a subagent's age). */
	startedAt: number;
	/** Its parent gave up on it (treated it as failed) and no longer waits for it. */
	abandoned: boolean;
	/** Subagent results delivered since its last turn began. */
	results: { item: string; verifyNote: boolean }[];
}

interface Prompt {
	source: TurnSource;
	intent: UserIntent | null;
	traits: PromptTraits | null;
	nudge: NudgeRecord | null;
	promptTokens: number;
}

interface ActiveTurn {
	token: number;
	nudge: NudgeRecord | null;
	plan: TurnPlan;
	progress: boolean;
	/** The turn's new tokens: the prompt and tool outputs (input, cache writes) and what the agent wrote. */
	spend: Spend;
	/** Context carried over and billed again by the turn's model calls (0 with a prompt cache). */
	reread: number;
	hugeStep: Step | null;
}

interface Delivery {
	key: string;
	session: Session;
	text: string;
	traits: PromptTraits;
	seq: number;
	userSeq: number;
	generation: number;
	cancelled: boolean;
}

const MAIN = "main";

function spendTotal(spend: Spend): number {
	return spend.input + spend.output + spend.cacheWrite;
}

export function simulate(input: SimulateInput): RunResult {
	return new World(input).run();
}

function runRng(profile: Profile, seed: number): Rng {
	return new Rng(seedFrom(seed, profile.name));
}

/** The scenario a run of `profile` with `seed` plays, for the report. */
export function scenarioOf(profile: Profile, seed: number): Scenario {
	return profile.setup(runRng(profile, seed).fork("scenario"));
}

class World {
	private now = 0;
	private readonly queue = new EventQueue();
	private readonly caps: Caps;
	private readonly scenario: Scenario;
	private readonly policy: Policy;
	private readonly main: Session;
	private readonly sessions = new Map<string, Session>();
	private readonly agentRng: Rng;
	private readonly userRng: Rng;
	private readonly harnessRng: Rng;
	private readonly truth = { abortedSinceUser: false, stopped: false, question: false, overflow: false };
	private readonly fired = { esc: false, stop: false, restart: false, huge: false };
	/** Bumps on every user action: a countdown running across one is cancelled. */
	private userSeq = 0;
	/** Bumps on a restart: timers and countdowns of the old plugin processes die. */
	private generation = 0;
	private tokens = 0;
	private idles = 0;
	private decisions = 0;
	private capped = false;
	private compactDue = false;
	private children = 0;
	private readonly nudges: NudgeRecord[] = [];
	private readonly pending = new Map<string, Delivery>();
	private turnsToFinish: number | null = null;
	private listReminders = 0;
	/** Nudges delivered to the main session since the user last wrote: what a harness's continuation cap counts. */
	private nudgesInRow = 0;
	private overridden = 0;
	/** The main session's last skip, with the idle it answered. */
	private lastSkip: { seq: number; reason: string } | null = null;

	constructor(private readonly input: SimulateInput) {
		const base = runRng(input.profile, input.seed);
		this.caps = input.caps ?? DEFAULT_CAPS;
		this.scenario = input.profile.setup(base.fork("scenario"));
		this.agentRng = base.fork("agent");
		this.userRng = base.fork("user");
		this.harnessRng = base.fork("harness");
		this.policy = input.makePolicy(() => this.truthNow());
		this.main = this.newSession(MAIN, null, "build", false, this.scenario.agent, this.scenario.items, null);
		this.main.phrase = this.policy.requestTraits?.completionPhrase ?? null;
		this.main.context = this.scenario.harness.contextStart;
	}

	run(): RunResult {
		this.emit({ type: "session-created", session: MAIN, parent: null, agent: "build", readOnly: false, at: 0 });
		this.queue.push(0, () => this.userMessage("work"));
		for (let entry = this.queue.pop(); entry && !this.capped; entry = this.queue.pop()) {
			if (entry.at > this.caps.simMs) {
				this.capped = true;
				break;
			}
			this.now = entry.at;
			entry.run();
		}
		return this.result();
	}

	// ---- sessions and turns ----

	private newSession(
		id: string,
		parent: Session | null,
		agentName: string,
		readOnly: boolean,
		agent: Agent,
		items: Item[],
		spec: ChildSpec | null,
	): Session {
		const session: Session = {
			id,
			parent,
			agentName,
			readOnly,
			agent,
			items: items.map((item) => ({ ...item })),
			listWritten: false,
			phrase: null,
			turn: null,
			turns: 0,
			idleSeq: 0,
			nudgedIdle: -1,
			lastText: null,
			queued: [],
			context: 15_000,
			running: 0,
			pendingQuestion: false,
			latestIsCompaction: false,
			spec,
			reported: false,
			startedAt: this.now,
			abandoned: false,
			results: [],
		};
		this.sessions.set(id, session);
		return session;
	}

	private begin(session: Session, prompt: Prompt): void {
		if (session.turn) session.queued.push(prompt);
		else this.startTurn(session, prompt);
	}

	private startTurn(session: Session, prompt: Prompt): void {
		const isMain = session === this.main;
		const plan = session.agent.respond({
			source: prompt.source,
			intent: prompt.intent,
			traits: prompt.traits,
			phrase: session.phrase,
			items: session.items,
			turn: session.turns,
			pendingQuestion: isMain && this.truth.question,
			backgroundRunning: session.running,
			results: session.results,
			rng: this.agentRng,
		});
		session.results = [];
		session.turns++;
		if (isMain && prompt.source === "user") this.nudgesInRow = 0;
		const turn: ActiveTurn = {
			token: ++this.tokens,
			nudge: prompt.nudge,
			plan,
			progress: false,
			spend: { input: 400 + prompt.promptTokens, output: 0, cacheWrite: 0 },
			reread: 0,
			hugeStep: null,
		};
		session.turn = turn;
		session.latestIsCompaction = false;
		this.emit({ type: "turn-start", session: session.id, source: prompt.source, at: this.now });
		const { steps, durationMs, outcome, hugeStep } = isMain
			? applyFaults({
					plan,
					context: session.context,
					harness: this.scenario.harness,
					turnIndex: session.turns,
					now: this.now,
					hugeUsed: this.fired.huge,
					rng: this.harnessRng,
				})
			: { ...plan, outcome: "end" as const, hugeStep: null };
		if (hugeStep) {
			this.fired.huge = true;
			turn.hugeStep = hugeStep;
		}
		const start = this.now;
		for (const step of steps) this.queue.push(start + step.at, () => this.applyStep(session, turn, step));
		// A wedged subagent's turn never ends.
		if (!session.spec?.wedged) this.queue.push(start + durationMs, () => this.endTurn(session, turn, outcome));
		if (isMain) this.userAndHarnessScripts(turn, start, durationMs);
	}

	private userAndHarnessScripts(turn: ActiveTurn, start: number, durationMs: number): void {
		const { esc, stop } = this.scenario.user;
		const restart = this.scenario.harness.restart;
		const index = this.main.turns;
		if (esc && !this.fired.esc && index === esc.turn) {
			this.fired.esc = true;
			this.queue.push(start + Math.floor(durationMs * esc.at), () => this.userEsc(turn, esc.resumeAfterMs));
		}
		if (stop && !this.fired.stop && index === stop.turn) {
			this.fired.stop = true;
			this.queue.push(start + Math.floor(durationMs * stop.at), () => this.userStop(stop.followUpAfterMs));
		}
		if (restart && !this.fired.restart && index === restart.turn) {
			this.fired.restart = true;
			this.queue.push(start + Math.floor(durationMs * restart.at), () => this.restartHarness(turn, restart.bootMs));
		}
	}

	private applyStep(session: Session, turn: ActiveTurn, step: Step): void {
		if (session.turn !== turn) return;
		const rng = this.harnessRng;
		switch (step.kind) {
			case "assistant":
				// The turn's first call: all it carries over is the context before the prompt.
				this.modelCall(session, turn, 0);
				this.emit({ type: "assistant", session: session.id, at: this.now });
				return;
			case "activity":
				this.modelCall(session, turn);
				turn.spend.cacheWrite += rng.int(1_500, 4_000);
				turn.spend.output += rng.int(150, 400);
				if (turn.hugeStep === step) session.context += this.scenario.harness.hugeOutput?.tokens ?? 0;
				if (step.tool === "edit") this.fileChanged(session, turn);
				if (
					step.tool === "edit" &&
					session === this.main &&
					this.scenario.orchestrating &&
					turn.nudge &&
					!turn.nudge.violations.includes("orchestrator-edit")
				) {
					turn.nudge.violations.push("orchestrator-edit");
				}
				this.emit({ type: "activity", session: session.id, tool: step.tool, at: this.now });
				return;
			case "work": {
				const item = session.items.find((candidate) => candidate.id === step.id);
				if (item && !item.done) {
					item.worked++;
					turn.progress = true;
					if (item.worked >= item.effort) {
						item.done = true;
						this.checkFinished();
					}
				}
				return;
			}
			case "list":
				this.writeList(session, turn, step.todos);
				return;
			case "question":
				this.modelCall(session, turn);
				turn.spend.output += 150;
				session.pendingQuestion = true;
				if (session === this.main) this.askUser();
				this.emit({ type: "question", session: session.id, state: "asked", at: this.now });
				return;
			case "self-answer":
				if (session === this.main && this.truth.question) {
					this.truth.question = false;
					if (session.pendingQuestion) {
						session.pendingQuestion = false;
						this.emit({ type: "question", session: session.id, state: "answered", at: this.now });
					}
				}
				return;
			case "spawn":
				this.modelCall(session, turn);
				if (step.children.length > 0) turn.progress = true;
				for (const child of step.children) this.spawnChild(session, child);
				for (const ms of step.jobs) {
					session.running++;
					this.queue.push(this.now + ms, () => this.backgroundDone(session));
				}
				this.emit({ type: "background", session: session.id, running: session.running, at: this.now });
				return;
			case "abandon": {
				const child = this.runningChildren(session).find((candidate) => candidate.spec?.parentItem === step.item);
				if (!child) return;
				child.abandoned = true;
				session.running = Math.max(0, session.running - 1);
				this.emit({ type: "background", session: session.id, running: session.running, at: this.now });
				return;
			}
		}
	}

	/** A file change: a policy may remind the agent of its list on the tool's result, and the agent may act on it there and then. */
	private fileChanged(session: Session, turn: ActiveTurn): void {
		if (!this.policy.fileChange?.(this.facts(session))) return;
		this.listReminders++;
		const todos = session.agent.onListReminder?.(session.items);
		if (todos) this.writeList(session, turn, todos);
	}

	/** Subagents of `session` still running that it has not given up on. */
	private runningChildren(session: Session): Session[] {
		return [...this.sessions.values()].filter(
			(candidate) => candidate.parent === session && !candidate.reported && !candidate.abandoned,
		);
	}

	private childLimitMs(): number {
		return this.scenario.childLimitMs ?? CHILD_LIMIT_MS;
	}

	/** Running subagents of `session` that will never finish and have run past the time limit. */
	private overdueWedged(session: Session): Session[] {
		return this.runningChildren(session).filter(
			(child) => child.spec?.wedged && this.now - child.startedAt >= this.childLimitMs(),
		);
	}

	/**
	 * A model call of the turn: the first answer, and one after each tool call.
	 * Without a prompt cache the provider bills everything the context already
	 * holds again; the tokens the call adds are booked once, as the turn's own.
	 */
	private modelCall(session: Session, turn: ActiveTurn, carried = spendTotal(turn.spend)): void {
		if (this.scenario.harness.promptCache) return;
		turn.reread += session.context + carried;
	}

	private writeList(session: Session, turn: ActiveTurn, todos: readonly SimTodo[]): void {
		this.modelCall(session, turn);
		const { items, progress } = mergeList(session.items, todos);
		session.items = items;
		if (progress) turn.progress = true;
		session.listWritten = true;
		turn.spend.output += 120;
		this.emit({ type: "todos", session: session.id, todos: toTodos(session.items), at: this.now });
	}

	private endTurn(session: Session, turn: ActiveTurn, outcome: Outcome): void {
		if (session.turn !== turn) return;
		session.turn = null;
		if (outcome === "context-overflow" && session === this.main) {
			session.context = Math.max(session.context, this.scenario.harness.contextLimit);
			if (!this.truth.overflow) {
				this.truth.overflow = true;
				this.queue.push(this.now + this.harnessRng.int(10_000, 40_000), () => this.compactAfterOverflow());
			}
		}
		const text = outcome === "end" ? turn.plan.text : "";
		this.closeTurn(session, turn, outcome, text, true);
		if (outcome === "end" && turn.plan.asks && session === this.main) this.askUser();
	}

	/** Books the finished turn, tells the policy, then starts what waits or goes idle. */
	private closeTurn(session: Session, turn: ActiveTurn, outcome: Outcome, text: string, goIdle: boolean): void {
		const own = turn.spend;
		own.output += 200 + Math.ceil(text.length / 4);
		if (outcome !== "context-overflow") session.context += spendTotal(own);
		// Without a prompt cache the provider reports no cache writes: what it read, new or carried over, is input.
		const spend: Spend = this.scenario.harness.promptCache
			? { ...own }
			: { input: own.input + own.cacheWrite + turn.reread, output: own.output, cacheWrite: 0 };
		const total = spendTotal(spend);
		if (turn.nudge) {
			turn.nudge.tokens = total;
			// A turn the user or a restart cut short says nothing about the nudge that started it.
			turn.nudge.wasted = outcome === "aborted" ? null : !turn.progress;
		}
		session.idleSeq++;
		session.lastText = text;
		this.emit({
			type: "turn-end",
			session: session.id,
			outcome,
			spend,
			lastCallTokens: session.context,
			text,
			at: this.now,
		});
		if (session.parent && !session.reported) this.childReported(session);
		if (!goIdle) return;
		const harness = this.scenario.harness;
		if (
			session === this.main &&
			(this.compactDue || (outcome === "end" && session.context > 0.85 * harness.contextLimit))
		) {
			this.compact();
			return;
		}
		const next = session.queued.shift();
		if (next) {
			this.startTurn(session, next);
			return;
		}
		this.emitIdles(session);
	}

	private emitIdles(session: Session): void {
		const seq = session.idleSeq;
		const harness = this.scenario.harness;
		const copies = session === this.main ? harness.idleCopies : 1;
		for (let i = 0; i < copies; i++) {
			const delay = i === 0 ? 0 : this.harnessRng.int(1, 30);
			this.queue.push(this.now + delay, () => this.harnessIdle(session, seq));
		}
		if (session === this.main && this.harnessRng.chance(harness.lateDuplicate)) {
			this.queue.push(this.now + this.harnessRng.int(500, 4_000), () => this.harnessIdle(session, seq));
		}
	}

	// ---- compaction, background work, restarts ----

	private compactAfterOverflow(): void {
		if (this.main.turn) {
			this.compactDue = true;
			return;
		}
		this.compact();
	}

	/** The harness compacts the main session and continues it on its own. */
	private compact(): void {
		this.compactDue = false;
		this.truth.overflow = false;
		this.main.context = this.harnessRng.int(25_000, 35_000);
		this.main.latestIsCompaction = true;
		this.emit({ type: "compacted", session: MAIN, at: this.now });
		this.begin(this.main, { source: "compaction", intent: null, traits: null, nudge: null, promptTokens: 40 });
	}

	private spawnChild(parent: Session, spec: ChildSpec): void {
		const id = `child-${++this.children}`;
		const child = this.newSession(id, parent, spec.agent, spec.readOnly, new Subagent(spec), subagentItems(spec), spec);
		parent.running++;
		this.emit({
			type: "session-created",
			session: id,
			parent: parent.id,
			agent: spec.agent,
			readOnly: spec.readOnly,
			at: this.now,
		});
		this.begin(child, { source: "user", intent: "work", traits: null, nudge: null, promptTokens: 300 });
	}

	/** A subagent's first turn ended: its parent's item is really done and the parent hears of it. */
	private childReported(child: Session): void {
		child.reported = true;
		const parent = child.parent;
		if (!parent || !child.spec) return;
		const item = parent.items.find((candidate) => candidate.id === child.spec?.parentItem);
		if (child.abandoned) return;
		const verifyNote =
			this.policy.subagentResult?.({
				parent: this.facts(parent),
				child: child.id,
				agent: child.agentName,
				description: item?.content ?? child.spec.parentItem,
			}) ?? false;
		parent.results.push({ item: child.spec.parentItem, verifyNote });
		if (item && !item.done && !child.spec.unfinished) {
			item.done = true;
			this.checkFinished();
		}
		this.backgroundDone(parent);
	}

	private backgroundDone(session: Session): void {
		session.running = Math.max(0, session.running - 1);
		this.emit({ type: "background", session: session.id, running: session.running, at: this.now });
		if (session.running > 0) return;
		this.queue.push(this.now + this.harnessRng.int(1_000, 3_000), () =>
			this.begin(session, { source: "wake", intent: null, traits: null, nudge: null, promptTokens: 250 }),
		);
	}

	private restartHarness(turn: ActiveTurn, bootMs: number): void {
		this.emit({ type: "shutdown", at: this.now });
		if (this.main.turn === turn) {
			this.main.turn = null;
			this.main.queued = [];
			this.emit({ type: "abort", session: MAIN, at: this.now });
			this.closeTurn(this.main, turn, "aborted", "", false);
		}
		this.generation++;
		this.pending.clear();
		this.emit({ type: "restart", at: this.now });
		this.queue.push(this.now + bootMs, () =>
			this.begin(this.main, { source: "restart", intent: null, traits: null, nudge: null, promptTokens: 60 }),
		);
	}

	// ---- the user ----

	private userMessage(intent: UserIntent): void {
		this.userSeq++;
		this.truth.abortedSinceUser = false;
		if (this.truth.question) {
			this.truth.question = false;
			if (this.main.pendingQuestion) {
				this.main.pendingQuestion = false;
				this.emit({ type: "question", session: MAIN, state: "answered", at: this.now });
			}
		}
		const promptTokens = intent === "work" ? 120 : 40;
		this.begin(this.main, { source: "user", intent, traits: null, nudge: null, promptTokens });
	}

	private askUser(): void {
		this.truth.question = true;
		this.queue.push(this.now + this.scenario.user.answerDelayMs, () => this.userMessage("answer"));
	}

	private userEsc(turn: ActiveTurn, resumeAfterMs: number): void {
		if (this.main.turn !== turn) return;
		this.userSeq++;
		this.truth.abortedSinceUser = true;
		this.main.turn = null;
		this.main.queued = [];
		this.emit({ type: "abort", session: MAIN, at: this.now });
		this.closeTurn(this.main, turn, "aborted", "", true);
		this.queue.push(this.now + resumeAfterMs + this.userRng.int(0, 30_000), () => this.userMessage("work"));
	}

	private userStop(followUpAfterMs: number): void {
		this.userSeq++;
		this.truth.stopped = true;
		this.emit({ type: "stop-command", session: MAIN, at: this.now });
		this.queue.push(this.now + followUpAfterMs + this.userRng.int(0, 30_000), () => this.userMessage("status"));
	}

	// ---- the policy ----

	private emit(event: HarnessEvent): void {
		const recheck = this.policy.observe(event);
		if (!recheck) return;
		const session = this.sessions.get(recheck.session);
		if (session) this.scheduleRecheck(session, recheck.at, session.idleSeq);
	}

	private facts(session: Session): IdleFacts {
		return {
			session: session.id,
			subagent: session.parent !== null,
			agent: session.agentName,
			readOnly: session.readOnly,
			todos: session.listWritten ? toTodos(session.items) : [],
			lastAssistantText: session.lastText,
			pendingQuestion: session.pendingQuestion,
			backgroundTasks: session.running,
			busy: session.turn !== null,
			latestIsCompaction: session.latestIsCompaction,
			orchestrating: session === this.main && this.scenario.orchestrating === true,
			background: this.runningChildren(session).map((child) => ({
				id: child.id,
				agent: child.agentName,
				startedAt: child.startedAt,
			})),
			harnessCap:
				session === this.main && this.scenario.harness.continuationCap !== null
					? { limit: this.scenario.harness.continuationCap, inRow: this.nudgesInRow }
					: null,
			now: this.now,
		};
	}

	private harnessIdle(session: Session, seq: number): void {
		if (++this.idles > this.caps.idles) {
			this.capped = true;
			return;
		}
		this.decideNow(session, seq);
	}

	private decideNow(session: Session, seq: number): void {
		if (++this.decisions > this.caps.decisions) {
			this.capped = true;
			return;
		}
		const answer = this.policy.decide(this.facts(session));
		if (answer.kind === "skip" && session === this.main) this.lastSkip = { seq, reason: answer.reason };
		if (answer.kind === "inject") this.scheduleDelivery(session, answer.key, answer.text, answer.traits, seq);
		else if (answer.retryAt !== undefined) this.scheduleRecheck(session, answer.retryAt, seq);
	}

	private scheduleRecheck(session: Session, at: number, seq: number): void {
		const generation = this.generation;
		this.queue.push(Math.max(at, this.now), () => {
			if (generation !== this.generation || session.idleSeq !== seq || session.turn) return;
			this.decideNow(session, seq);
		});
	}

	private scheduleDelivery(session: Session, key: string, text: string, traits: PromptTraits, seq: number): void {
		const previous = this.pending.get(key);
		if (previous) previous.cancelled = true;
		const delivery: Delivery = {
			key,
			session,
			text,
			traits,
			seq,
			userSeq: this.userSeq,
			generation: this.generation,
			cancelled: false,
		};
		this.pending.set(key, delivery);
		this.queue.push(this.now + this.policy.countdownMs, () => this.deliver(delivery));
	}

	private deliver(delivery: Delivery): void {
		if (delivery.cancelled || delivery.generation !== this.generation) return;
		this.pending.delete(delivery.key);
		const { session } = delivery;
		if (this.policy.countdownMs > 0 && this.userSeq !== delivery.userSeq) return;
		if (this.policy.confirm && !this.policy.confirm(delivery.key, this.facts(session))) return;
		if (this.harnessRng.chance(this.scenario.harness.deliveryFailRate)) {
			this.emit({ type: "delivery-failed", session: session.id, key: delivery.key, at: this.now });
			return;
		}
		const cap = this.scenario.harness.continuationCap;
		if (session === this.main && cap !== null && this.nudgesInRow + 1 >= cap) {
			// The harness overrides the block and ends the prompt's run: the nudge never reaches the agent.
			this.overridden++;
			return;
		}
		if (session === this.main) this.nudgesInRow++;
		const nudge: NudgeRecord = {
			session: session.id,
			child: session.parent !== null,
			at: this.now,
			violations: this.violations(session, delivery.seq),
			tokens: 0,
			wasted: null,
		};
		session.nudgedIdle = delivery.seq;
		this.nudges.push(nudge);
		this.emit({ type: "delivered", session: session.id, key: delivery.key, at: this.now });
		const promptTokens = Math.ceil(delivery.text.length / 4);
		this.begin(session, { source: "nudge", intent: null, traits: delivery.traits, nudge, promptTokens });
	}

	private violations(session: Session, seq: number): ViolationKind[] {
		const kinds: ViolationKind[] = [];
		if (session.parent) kinds.push("into-subagent");
		else {
			if (this.truth.abortedSinceUser) kinds.push("after-abort");
			if (this.truth.question) kinds.push("question-pending");
			if (this.truth.stopped) kinds.push("after-stop");
			if (session.running - this.overdueWedged(session).length > 0) kinds.push("background-busy");
		}
		if (session.nudgedIdle === seq) kinds.push("duplicate");
		return kinds;
	}

	// ---- ground truth and the result ----

	private finishableLeft(): number {
		return this.main.items.filter((item) => !item.done && !item.outside).length;
	}

	private checkFinished(): void {
		if (this.turnsToFinish === null && this.finishableLeft() === 0) this.turnsToFinish = this.main.turns;
	}

	private truthNow(): Truth {
		return {
			finishableLeft: this.finishableLeft(),
			questionPending: this.truth.question,
			abortedSinceUser: this.truth.abortedSinceUser,
			stopped: this.truth.stopped,
			backgroundRunning: this.main.running - this.overdueWedged(this.main).length,
			overdue: this.overdueWedged(this.main).length > 0,
			nextDeadline: this.nextWedgedDeadline(),
			overflow: this.truth.overflow,
			stuck: this.input.profile.expect.stop === "stuck",
			idleSeq: this.main.idleSeq,
		};
	}

	private nextWedgedDeadline(): number | null {
		const deadlines = this.runningChildren(this.main)
			.filter((child) => child.spec?.wedged)
			.map((child) => child.startedAt + this.childLimitMs())
			.filter((deadline) => deadline > this.now);
		return deadlines.length > 0 ? Math.min(...deadlines) : null;
	}

	private result(): RunResult {
		const { profile } = this.input;
		const violations = noViolations();
		for (const nudge of this.nudges) for (const kind of nudge.violations) violations[kind]++;
		// The run is over: a wedged subagent still held against an idle parent holds it forever.
		const wedged = this.runningChildren(this.main).some((child) => child.spec?.wedged);
		if (wedged && !this.main.turn && !this.capped) violations["parent-waiting"]++;
		const completed = this.finishableLeft() === 0;
		const wasted = this.nudges.filter((nudge) => nudge.wasted === true);
		const run = { completed, capped: this.capped, violations, wasted: wasted.length, overridden: this.overridden };
		return {
			policy: this.policy.name,
			profile: profile.name,
			seed: this.input.seed,
			finishExpected: profile.expect.finish,
			stop: profile.expect.stop,
			completed,
			rightOutcome: judgeOutcome(profile.expect.stop, run),
			nudges: this.nudges.length,
			wasted: wasted.length,
			longestWasteRun: longestRun(this.nudges),
			violations,
			nudgeTokens: this.nudges.reduce((sum, nudge) => sum + nudge.tokens, 0),
			wastedTokens: wasted.reduce((sum, nudge) => sum + nudge.tokens, 0),
			turns: this.main.turns,
			listReminders: this.listReminders,
			turnsToFinish: this.turnsToFinish,
			capped: this.capped,
			overridden: this.overridden,
			stoppedBy: this.lastSkip?.seq === this.main.idleSeq && !this.main.turn ? this.lastSkip.reason : null,
		};
	}
}
