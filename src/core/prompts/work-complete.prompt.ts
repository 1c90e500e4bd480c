// Said once, to the user, when the work is done (and verified, where it has verify commands).
export const WORK_COMPLETE_MESSAGE = `boulder: {{name}} is complete — {{progress}}{{verified}}.`;
