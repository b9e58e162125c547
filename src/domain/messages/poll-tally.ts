/** A poll as stored: its question, how many options a voter may pick, and each option's votes. */
export interface StoredPoll {
  name: string;
  selectableCount: number;
  options: Array<{ name: string; votes: number; voters: string[] }>;
}

/**
 * The poll after `voter` chose `choices` (option names; none withdraws the vote): a voter's new
 * vote replaces the earlier one, so the voter leaves every option first. Names the poll does not
 * have are ignored; options keep their order, voters the order they voted in.
 */
export function withVote(poll: StoredPoll, voter: string, choices: string[]): StoredPoll {
  const chosen = new Set(choices);
  return {
    ...poll,
    options: poll.options.map((option) => {
      const voters = option.voters.filter((name) => name !== voter);
      if (chosen.has(option.name)) voters.push(voter);
      return { name: option.name, votes: voters.length, voters };
    }),
  };
}

/** The tally events and answers show: the question and each option's votes and voters (phone digits). */
export function tallyOf(poll: StoredPoll): { name: string; options: StoredPoll['options'] } {
  return { name: poll.name, options: poll.options.map(({ name, votes, voters }) => ({ name, votes, voters: [...voters] })) };
}
