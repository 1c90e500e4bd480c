/** Parsers for option values, so a bad value is a usage error (exit 2) naming the option. */
import { InvalidArgumentError } from "commander";

export function positiveInt(value: string): number {
	if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
		throw new InvalidArgumentError(`expected a whole number of 1 or more, got ${JSON.stringify(value)}`);
	}
	return Number(value);
}

/** A TCP port; 0 lets the system choose a free one. */
export function portNumber(value: string): number {
	if (!/^\d+$/.test(value.trim()) || Number(value) > 65535) {
		throw new InvalidArgumentError(`expected a port number from 0 to 65535, got ${JSON.stringify(value)}`);
	}
	return Number(value);
}
