import { useMutation, useQuery } from '@urql/preact';
import { useEffect, useState } from 'preact/hooks';
import { Errors } from '../components/notice.js';
import { describeError, problemsOf } from '../errors.js';
import { InstanceSettingsQuery, UpdateSettings } from '../operations.js';

/** The form's own copy of the settings it changes (history and media are set with the instance). */
interface Draft {
  reject: boolean;
  message: string;
  alwaysOnline: boolean;
  autoRead: boolean;
  groups: boolean;
  broadcasts: boolean;
  status: boolean;
  minIntervalMs: string;
  jitterMs: string;
  newContactsPerHour: string;
  typing: boolean;
  proxy: string;
}

const whole = (text: string) => (text.trim() === '' ? 0 : Number(text));

/** An instance's settings (docs/settings.md): what its engine cannot carry is shown, but cannot be turned on. */
export function SettingsSection(props: { instanceId: string; integration: string }) {
  const [read] = useQuery({ query: InstanceSettingsQuery, variables: { id: props.instanceId } });
  const [saved, save] = useMutation(UpdateSettings);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const settings = saved.data?.updateInstanceSettings.settings ?? read.data?.instance?.settings;
  useEffect(() => {
    if (!settings || draft) return;
    setDraft({
      reject: settings.calls.reject,
      message: settings.calls.message ?? '',
      alwaysOnline: settings.alwaysOnline,
      autoRead: settings.autoRead,
      ...settings.ignore,
      minIntervalMs: String(settings.sending.minIntervalMs),
      jitterMs: String(settings.sending.jitterMs),
      newContactsPerHour: settings.sending.newContactsPerHour === null ? '' : String(settings.sending.newContactsPerHour),
      typing: settings.sending.typing,
      proxy: '',
    });
  }, [settings, draft]);
  if (!draft || !settings) return <Errors messages={[describeError(read.error)]} />;
  const can = new Set<string>(read.data?.integrations.find((line) => line.integration === props.integration)?.capabilities ?? []);
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const check = (label: string, field: keyof Draft, capability?: string) => (
    <label class="check">
      <input type="checkbox" checked={draft[field] as boolean} disabled={capability !== undefined && !can.has(capability) && !(draft[field] as boolean)} onChange={(e) => set({ [field]: e.currentTarget.checked })} />
      {label}
      {capability !== undefined && !can.has(capability) && <small> (not on this network)</small>}
    </label>
  );
  return (
    <section class="card" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const body: Record<string, unknown> = {
            calls: { reject: draft.reject, message: draft.message.trim() || null },
            alwaysOnline: draft.alwaysOnline,
            autoRead: draft.autoRead,
            ignore: { groups: draft.groups, broadcasts: draft.broadcasts, status: draft.status },
            sending: { minIntervalMs: whole(draft.minIntervalMs), jitterMs: whole(draft.jitterMs), newContactsPerHour: draft.newContactsPerHour.trim() === '' ? null : Number(draft.newContactsPerHour), typing: draft.typing },
          };
          // A proxy's password is never shown back: the field only ever sets a new one.
          if (draft.proxy.trim() !== '') body.proxy = { url: draft.proxy.trim() };
          const answer = await save({ input: { id: props.instanceId, settings: body } });
          setErrors(problemsOf(answer.error, answer.data?.updateInstanceSettings.userErrors));
          if (answer.data?.updateInstanceSettings.settings) set({ proxy: '' });
        }}
      >
        <fieldset>
          <legend>Calls</legend>
          {check('Reject calls', 'reject', 'calls')}
          <label>
            Message to the caller after a rejected call (optional)
            <textarea maxLength={1000} value={draft.message} disabled={!draft.reject} onInput={(e) => set({ message: e.currentTarget.value })} />
          </label>
        </fieldset>
        <fieldset>
          <legend>Presence and reading</legend>
          {check('Always online', 'alwaysOnline', 'always_online')}
          {check('Mark received messages read', 'autoRead', 'read')}
        </fieldset>
        <fieldset>
          <legend>Ignore (not stored, no webhook)</legend>
          {check('Groups', 'groups')}
          {check('Broadcast lists', 'broadcasts')}
          {check('Status updates', 'status')}
        </fieldset>
        <fieldset>
          <legend>Sending pace</legend>
          <label>
            At least (ms) between messages
            <input type="number" min={0} max={600000} value={draft.minIntervalMs} onInput={(e) => set({ minIntervalMs: e.currentTarget.value })} />
          </label>
          <label>
            Plus up to (ms) at random
            <input type="number" min={0} max={600000} value={draft.jitterMs} onInput={(e) => set({ jitterMs: e.currentTarget.value })} />
          </label>
          <label>
            First messages to new numbers per hour (empty: no limit)
            <input type="number" min={1} max={10000} value={draft.newContactsPerHour} onInput={(e) => set({ newContactsPerHour: e.currentTarget.value })} />
          </label>
          {check('Show typing before a text', 'typing', 'typing')}
        </fieldset>
        <fieldset>
          <legend>Proxy</legend>
          <p>{settings.proxy ? `Now: ${settings.proxy.url}${settings.proxy.exitAddress ? `, seen as ${settings.proxy.exitAddress}` : ''}` : 'None: the instance connects directly.'}</p>
          <label>
            New proxy URL (http:// or socks5://, user:password@ optional)
            <input type="text" value={draft.proxy} disabled={!can.has('proxy')} placeholder={can.has('proxy') ? 'socks5://user:password@proxy.example:1080' : 'not on this network'} onInput={(e) => set({ proxy: e.currentTarget.value })} />
          </label>
        </fieldset>
        <Errors messages={errors} />
        <div class="actions">
          <button type="submit" disabled={saved.fetching}>
            Save settings
          </button>
          {settings.proxy && (
            <button
              type="button"
              class="secondary"
              disabled={saved.fetching}
              onClick={async () => {
                const answer = await save({ input: { id: props.instanceId, settings: { proxy: null } } });
                setErrors(problemsOf(answer.error, answer.data?.updateInstanceSettings.userErrors));
              }}
            >
              Remove proxy
            </button>
          )}
        </div>
      </form>
      {saved.data?.updateInstanceSettings.settings && !saved.data.updateInstanceSettings.userErrors.length && <p class="ok">Saved.</p>}
    </section>
  );
}
