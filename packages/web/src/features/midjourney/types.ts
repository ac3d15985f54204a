// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type { MidjourneyView as DrawingItem } from '@gateway/shared';

export type { DrawingItem };
