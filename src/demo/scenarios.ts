/**
 * Scripted agent sessions for the demo: what the agent does each turn, played
 * through the real engine. Each scenario says what a good outcome looks like.
 */
import type { Todo } from "../core/todos.js";

export interface AgentTurn {
	/** The list after this turn (null: unchanged). */
	todos: Todo[] | null;
	/** The agent's closing words this turn. */
	says: string;
	/** Tool calls that changed something. */
	activity?: number;
}

export interface Scenario {
	title: string;
	expect: string;
	userPrompt: string;
	/** Turn 0 answers the user; later turns answer nudges. */
	turn: (index: number, current: Todo[]) => AgentTurn;
}

const list = (statuses: Todo["status"][], names: string[]): Todo[] =>
	names.map((content, index) => ({ content, status: statuses[index] ?? "pending" }));

const FEATURE = ["Add the settings schema", "Load settings from disk", "Validate on save", "Document the options"];

function completed(count: number): Todo["status"][] {
	return FEATURE.map((_, index) => (index < count ? "completed" : "pending"));
}

export const SCENARIOS: Scenario[] = [
	{
		title: "A lazy agent that stops after every item",
		expect: "boulder carries it through all four items, then lets it stop and says the work is done.",
		userPrompt: "Implement the settings feature (four steps).",
		turn: (index) => ({
			todos: list(completed(index + 1), FEATURE),
			says: `Done with "${FEATURE[index] ?? "everything"}".`,
			activity: 2,
		}),
	},
	{
		title: "An agent that stalls",
		expect: "boulder nudges it a few times, sees no progress, stops and says why.",
		userPrompt: "Fix the flaky integration test.",
		turn: (index) => ({
			todos: index === 0 ? list(["in_progress", "pending"], ["Find the race", "Fix the race"]) : null,
			says: "I am looking into it.",
		}),
	},
	{
		title: "An agent that asks the user a question",
		expect: "boulder does not answer for the user: no nudge while the question waits.",
		userPrompt: "Set up the database layer.",
		turn: () => ({
			todos: list(["completed", "pending", "pending"], ["Sketch the schema", "Pick the engine", "Write migrations"]),
			says: "The schema is sketched. Should I use Postgres or SQLite for local development?",
		}),
	},
];
