import type { FeatureView } from '@scenaro/sdk/react';
import type { ReactNode } from 'react';
import { FeatureStatus } from './FeatureStatus';

/** Props of {@link FeaturePanel}. */
export interface FeaturePanelProps {
  /** The feature's name (`FEATURES.*`). */
  name: string;
  feature: FeatureView<unknown>;
  /** Id of the heading, which labels the panel. */
  headingId: string;
  heading: ReactNode;
  /** Let focus move to the heading (a panel the shopper's clicks open). */
  focusableHeading?: boolean;
  id?: string;
  /** What the feature shows, in words, for its status line ("results"). */
  what: string;
  children: ReactNode;
}

/** A panel fed by a feature: its heading, the status of its latest call, then its content. */
export function FeaturePanel(props: FeaturePanelProps) {
  return (
    <section
      className="panel feature"
      {...(props.id ? { id: props.id } : {})}
      aria-labelledby={props.headingId}
      aria-busy={props.feature.status === 'running'}
      data-feature={props.name}
      data-status={props.feature.status}
    >
      <h2 id={props.headingId} {...(props.focusableHeading ? { tabIndex: -1 } : {})}>
        {props.heading}
      </h2>
      <FeatureStatus feature={props.feature} what={props.what} />
      {props.children}
    </section>
  );
}
