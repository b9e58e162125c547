import { describe, expect, it } from 'vitest';
import { pollVoteEvent } from '../../src/domain/events/message-payloads.js';
import { type StoredPoll, tallyOf, withVote } from '../../src/domain/messages/poll-tally.js';
import type { MessageRecord } from '../../src/domain/messages/messages.ports.js';

const poll: StoredPoll = {
  name: 'Lunch?',
  selectableCount: 2,
  options: ['Pizza', 'Sushi'].map((name) => ({ name, votes: 0, voters: [] })),
};

describe('a poll tally', () => {
  it('counts each voter once, a new vote replacing the last, an empty one withdrawing it', () => {
    let tally = withVote(poll, '551100', ['Pizza', 'Sushi']);
    tally = withVote(tally, '551101', ['Sushi']);
    expect(tallyOf(tally)).toEqual({
      name: 'Lunch?',
      options: [
        { name: 'Pizza', votes: 1, voters: ['551100'] },
        { name: 'Sushi', votes: 2, voters: ['551100', '551101'] },
      ],
    });
    tally = withVote(tally, '551100', ['Pizza']);
    expect(tally.options.map((option) => option.voters)).toEqual([['551100'], ['551101']]);
    tally = withVote(tally, '551101', []);
    expect(tally.options.map((option) => option.votes)).toEqual([1, 0]);
    expect(tally.selectableCount).toBe(2);
  });

  it('ignores option names the poll does not have, and leaves the poll it started from as it was', () => {
    const tally = withVote(poll, '551100', ['Pasta']);
    expect(tally.options.every((option) => option.votes === 0)).toBe(true);
    withVote(poll, '551100', ['Pizza']);
    expect(poll.options[0]!.voters).toEqual([]);
  });

  it('is announced as messages.update on the poll message, without selectableCount', () => {
    const message = { id: 'm1', poll: withVote(poll, '551100', ['Sushi']) } as unknown as MessageRecord;
    expect(pollVoteEvent(message)).toEqual({
      event: 'messages.update',
      data: {
        messageId: 'm1',
        poll: {
          name: 'Lunch?',
          options: [
            { name: 'Pizza', votes: 0, voters: [] },
            { name: 'Sushi', votes: 1, voters: ['551100'] },
          ],
        },
      },
    });
  });
});
