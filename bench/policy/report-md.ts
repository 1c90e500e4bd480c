/**
 * The Markdown report: the headline table, boulder's targets, violations by
 * kind, a per-profile breakdown, the method, the score formula, the config,
 * the seeds and how to reproduce. Deterministic: nothing of the clock or the
 * machine goes in.
 */
import type { Config } from "../../src/core/config.js";
import { markdownTable, num, pct, tokenCount } from "./format.js";
import type { Contestant } from "./policies/index.js";
import type { Profile } from "./profile.js";
import { HEADLINE_HEADER, headlineRows } from "./report-table.js";
import { FRUITLESS_LIMIT, type RunResult, VIOLATION_KINDS, VIOLATION_LABELS, violationTotal } from "./run-result.js";
import { SCORE_WEIGHTS, type Summary, summarize } from "./summary.js";
import type { TargetCheck } from "./targets.js";
import { type Caps, scenarioOf } from "./world.js";

export interface ReportInput {
	results: readonly RunResult[];
	summaries: readonly Summary[];
	targets: readonly TargetCheck[];
	profiles: readonly Profile[];
	contestants: readonly Contestant[];
	seeds: readonly number[];
	caps: Caps;
	config: Config;
}

export function renderMarkdown(input: ReportInput): string {
	const { results, summaries, targets, profiles, contestants, seeds, caps, config } = input;
	const out: string[] = [];
	out.push(
		"# Policy benchmark: does it finish the work, and does it stop when it should?",
		"",
		`${profiles.length} simulated session profiles × ${seeds.length} seeds × ${contestants.length} policies = ${results.length} runs. ` +
			"Every policy sees the same event stream a harness plugin would see and answers inject or skip at each idle; " +
			"the simulated agent, user and harness react to its nudges. Scores are about outcomes (is the work really done, " +
			"did the user get the wait they were owed), not about matching any policy's rules.",
		"",
		"![Completion against wasted nudges](policy.svg)",
		"",
		"## Results",
		"",
		markdownTable(HEADLINE_HEADER, headlineRows(summaries)),
		"",
		"- **completion**: share of runs with finishable work that ended with that work really done (ground truth, not the list).",
		"- **right outcome**: share of all runs that ended the way the profile says they should (see the profiles below).",
		"- **wasted**: nudges whose turn brought no progress; **longest fruitless run**: most wasted nudges in a row in any run.",
		"- **nudge tokens**: real spend (input + output + cache writes) of the turns the policy's nudges started, the nudge text included; a looping policy is charged up to the ceiling.",
		"- **turns to finish**: main-session turns until the work was done, over the runs that finished it.",
		"- **capped runs**: runs stopped by the ceiling with the policy still nudging.",
		"",
		"## boulder against the targets",
		"",
		markdownTable(
			["target", "met", "detail"],
			targets.map((check) => [check.target, check.met ? "yes" : "**no**", check.detail]),
			[1, 2],
		),
		"",
		"## Violations by kind (total over all runs)",
		"",
		markdownTable(
			["policy", ...VIOLATION_KINDS],
			summaries.map((s) => [s.policy, ...VIOLATION_KINDS.map((kind) => String(s.violations[kind]))]),
		),
		"",
		...VIOLATION_KINDS.map((kind) => `- **${kind}**: ${VIOLATION_LABELS[kind]}.`),
		"",
		"## Per profile",
		"",
	);
	for (const profile of profiles) {
		out.push(
			`### ${profile.name}`,
			"",
			`${capitalise(profile.summary)}. Right outcome: ${profile.expect.text}.`,
			"",
			markdownTable(
				[
					"policy",
					"right outcome",
					"completion",
					"nudges/run",
					"wasted/run",
					"longest fruitless run",
					"violations/run",
					"nudge tokens/run",
				],
				contestants.map((contestant) => {
					const runs = results.filter((run) => run.profile === profile.name && run.policy === contestant.name);
					const s = summarize(contestant.name, runs);
					return [
						contestant.name,
						pct(s.rightOutcome),
						profile.expect.finish ? pct(s.completion) : "-",
						num(s.nudgesPerRun),
						num(s.wastedPerRun),
						String(s.longestWasteRun),
						num(runs.reduce((sum, run) => sum + violationTotal(run), 0) / Math.max(1, runs.length)),
						tokenCount(s.tokensPerRun),
					];
				}),
			),
			"",
		);
	}
	out.push(
		"## The policies",
		"",
		"Each model follows the documented behaviour of its tool (never its code), known bugs included; where a document is unclear the model takes the reading most favourable to the tool and says so in its file header (`bench/policy/policies/`).",
		"",
		markdownTable(
			["policy", "modelled from", "rules"],
			contestants.map((contestant) => [contestant.name, contestant.source, contestant.rules]),
			[1, 2],
		),
		"",
		"## Method",
		"",
		"- **Progress** (ground truth): during the nudged turn an item really got done or moved forward (one of the turns of edits and test runs a hard item takes before it can be ticked), or was handed to a subagent, or the list caught up with work already done, or an item that needs someone outside was marked blocked. A turn cut short by the user's Esc or by a restart is not judged.",
		"- **Right outcome**: finish profiles: the finishable work is done, no violation, not capped. Wait-for-user profiles: the same, with no nudge while the user was owed the wait. Stopped: no nudge after the stop command. " +
			`Stuck and blocked: no violation, not capped, and at most ${FRUITLESS_LIMIT} fruitless nudges (blocked: the rest finished too).`,
		`- **Ceiling**: ${caps.idles} idle events, ${caps.decisions} decisions or ${caps.simMs / 3_600_000} h of simulated time per run; a policy still nudging there is charged everything it spent.`,
		"- **Tokens**: each turn's spend is drawn per tool call (tool output written to the cache, output tokens) plus the prompt; the context grows by the spend, the harness compacts at 85% of a 200k window and continues on its own. " +
			"Where the provider reports no prompt-cache reads (steady-expensive), every model call of a turn (its first answer and one after each tool call) also bills the whole context it carries as input.",
		"- The agent's responses to a nudge depend on what the nudge says (whether it names items, asks to tick them, says how to park a blocked item, gives a completion phrase), never on which policy sent it.",
		"",
		"### Limits",
		"",
		"- The agents are scripted habits, not models: each profile isolates one behaviour, and real sessions mix them.",
		"- One generic harness stands in for all: OpenCode-like events (paired idles, a question tool that leaves the session idle, compaction that continues on its own, harness wake-ups when background work ends), with each policy's own harness facts honoured where its document states them (ralph's Stop hook does not fire on Esc, API errors or subagents).",
		"- The plain-text questions come from a fixed pool of twelve phrasings (`bench/policy/texts.ts`), written as agents phrase them and not tuned to any detector.",
		"- The models of earlier tools follow their documents, which describe code at one commit; typeclaw's token reading (context size, not spend) is the document's own inference.",
		"",
		"## Score",
		"",
		`score = ${SCORE_WEIGHTS.completion} × completion − ${SCORE_WEIGHTS.violation} × violations per run − ${SCORE_WEIGHTS.wasted} × wasted nudges per run`,
		"",
		"Completion is a share (0 to 1), so a perfect policy scores 100. A violation (a nudge the user would call a bug) costs five times a wasted nudge (one that only burns tokens), following the design's stance: losing a nudge is acceptable, an unwanted nudge is a bug, a loop is a severe bug, and a loop piles up wasted nudges until the ceiling.",
		"",
		"## Config",
		"",
		"boulder runs with its default config:",
		"",
		"```json",
		JSON.stringify(config, null, 2),
		"```",
		"",
		"## Profiles and seeds",
		"",
		`Seeds ${seeds[0]} to ${seeds.at(-1)} (${seeds.length}) for every profile and policy. Each run's randomness comes from one mulberry32 stream seeded with FNV-1a of (seed, profile name), forked into independent streams for the scenario's parameters, the agent, the user and the harness, so every policy meets the same scenario and no policy shifts what the others draw.`,
		"",
		markdownTable(
			["profile", "what happens", "right outcome"],
			profiles.map((profile) => [profile.name, profile.summary, profile.expect.text]),
			[1, 2],
		),
		"",
		"<details><summary>Parameters drawn for each profile and seed</summary>",
		"",
	);
	for (const profile of profiles) {
		out.push(`**${profile.name}**`, "");
		for (const seed of seeds) {
			const params = Object.entries(scenarioOf(profile, seed).params)
				.map(
					([key, value]) =>
						`${key}=${typeof value === "string" && value.includes(" ") ? JSON.stringify(value) : value}`,
				)
				.join(", ");
			out.push(`- seed ${seed}: ${params}`);
		}
		out.push("");
	}
	out.push(
		"</details>",
		"",
		"## Reproduce",
		"",
		"```sh",
		"npm run bench:policy",
		"```",
		"",
		`Options: \`--seeds N\` (default ${seeds.length}) and \`--base-seed S\` (default ${seeds[0]}). The same options give byte-identical \`policy.md\` and \`policy.svg\`. Sources: \`bench/policy/\` (simulator, profiles, policy models); tests: \`test/bench/\`.`,
		"",
	);
	return out.join("\n");
}

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
