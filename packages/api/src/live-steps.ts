/**
 * A piece of a model step's thinking (`think`) or answer (`respond`), parsed from what the model
 * streams, before the step is logged: a preview of the step's stored `think`/`respond` events.
 */
export interface LiveText {
  session: string;
  /** The session's model step index (from 0). */
  step: number;
  /** The piece's place in its step, from 0: whoever got piece 0 saw the step from its start. */
  index: number;
  kind: 'think' | 'respond';
  text: string;
  /** The session log's last seq as the step began: the step's own events come after it. */
  afterSeq: number;
}

/** Where streams learn, live, what the model steps of a session write. */
export interface LiveSteps {
  /** Hands `listener` each piece `session`'s model steps write from now on; returns how to stop. */
  subscribe(session: string, listener: (text: LiveText) => void): () => void;
}
