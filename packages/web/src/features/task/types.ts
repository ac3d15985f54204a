// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type { TaskView as TaskItem } from '@gateway/shared';

export type { TaskItem };
