/** Parsers for option values, so a bad value is a usage error (exit 2) naming the option. */
import { InvalidArgumentError } from "commander";

export function positiveInt(value: string): number {
	if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
		throw new InvalidArgumentError(`expected a whole number of 1 or more, got ${JSON.stringify(value)}`);
	}
	return Number(value);
}
