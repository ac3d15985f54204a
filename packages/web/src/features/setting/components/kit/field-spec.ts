import type { ReactNode } from 'react';
import type { FieldKind, FormValue } from '../../option-form';

/**
 * One option in a settings section. Sections are lists of these, so the tabs describe their options and the
 * kit does the rendering, validation, diffing and saving.
 */
export interface FieldSpec {
  key: string;
  kind: FieldKind;
  label: ReactNode;
  help?: ReactNode;
  placeholder?: string;
  /** number */
  min?: number;
  max?: number;
  step?: number;
  precision?: number;
  /** select */
  options?: Array<{ value: string; label: ReactNode }>;
  /** textarea/json height */
  rows?: number;
  /** Takes the whole row (long texts, JSON). */
  wide?: boolean;
  /** Greys the input out while another field has some value (e.g. ping seconds while ping is off). */
  disabledWhen?: (values: Record<string, FormValue>) => boolean;
  /** Switch: asks before turning it off; cancelling leaves it on. */
  confirmOff?: { title: ReactNode; content: ReactNode };
  /** Replaces the standard input; it receives value/onChange from the form. */
  input?: ReactNode;
  /** Shown beside the input (e.g. a fetch button). */
  addon?: ReactNode;
}
