import { hrefOf } from '../router.js';

/** An address no page answers to (a mistyped or stale link): said so, with the way back. */
export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>{location.hash || '/'}</code>. The link may be mistyped or from an older version of the dashboard.
      </p>
      <p>
        <a href={hrefOf({ page: 'instances' })}>Back to the instances</a>
      </p>
    </section>
  );
}
