import { useQuery } from '@urql/preact';
import { InstanceGroups } from '../operations.js';

const GROUP_ID = /@g\.us$/;

/** A group without a known subject, by its id shortened to what tells two apart (the whole id on hover). */
export function groupIdInWords(id: string) {
  const digits = id.replace(GROUP_ID, '');
  return `group ${digits.length > 12 ? `${digits.slice(0, 4)}…${digits.slice(-4)}` : digits}`;
}

/**
 * Who a sent message went to: the phone digits, or a group by its subject. A subject already in the
 * list (a received message's) is used as is; otherwise the instance's groups are asked once (the cache
 * keeps them), and a group the network does not name shows its shortened id.
 */
export function Recipient(props: { to: string; instanceId: string | null | undefined; knownSubjects: Map<string, string> }) {
  const group = GROUP_ID.test(props.to);
  const known = props.knownSubjects.get(props.to);
  const [groups] = useQuery({ query: InstanceGroups, variables: { id: props.instanceId ?? '' }, pause: !group || !props.instanceId || Boolean(known) });
  if (!group) return <>{props.to}</>;
  const subject = known ?? groups.data?.instance?.groups?.find((g) => g.id === props.to)?.subject;
  return <span title={props.to}>{subject ? `group ${subject}` : groupIdInWords(props.to)}</span>;
}
