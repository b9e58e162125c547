/** An instance's status in the words of its own variant, with a colour for what it means. */
export function StatusBadge(props: { instance: { variant: string; status: string; sessionStatus: string } }) {
  const word = props.instance.variant === 'SESSION' ? props.instance.sessionStatus : props.instance.status;
  const tone = word === 'connected' ? 'ok' : word === 'connecting' || word === 'qr_code' || word === 'qr' ? 'busy' : word === 'error' || word === 'banned' ? 'bad' : 'idle';
  return <span class={`status status-${tone}`}>{word}</span>;
}

export function MessageStatusBadge(props: { status: string }) {
  const tone = props.status === 'read' || props.status === 'delivered' ? 'ok' : props.status === 'failed' ? 'bad' : props.status === 'sent' ? 'busy' : 'idle';
  return <span class={`status status-${tone}`}>{props.status}</span>;
}
