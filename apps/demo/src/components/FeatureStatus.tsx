import type { FeatureView } from '@scenaro/sdk/react';

/** The state of a feature's latest tool call, in words (nothing once it succeeded). */
export function FeatureStatus(props: { feature: FeatureView<unknown>; what: string }) {
  const { status, error, cancel } = props.feature;
  switch (status) {
    case 'running':
      return (
        <div className="feature-status running" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>Loading {props.what}…</span>
          <button type="button" className="link" onClick={() => cancel()}>
            Cancel
          </button>
        </div>
      );
    case 'error':
      return (
        <p className="feature-status error" role="alert">
          Could not show the {props.what}: {error ?? 'unknown error'}
        </p>
      );
    case 'timeout':
      return (
        <p className="feature-status error" role="alert">
          Showing the {props.what} took too long; the assistant was told it timed out.
        </p>
      );
    case 'cancelled':
      return (
        <p className="feature-status cancelled" role="status">
          Stopped showing the {props.what}: {error ?? 'cancelled'}.
        </p>
      );
    default:
      return null;
  }
}
