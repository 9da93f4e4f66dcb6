import { type DoctorLine, doctorVerdict } from "../model/doctor-line.ts";
import { context, packLines } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { escapeMrkdwn } from "./mrkdwn.ts";

/** `/decipher doctor`'s ack, replaced by its lines once Slack and Decipher answered. */
export const DOCTOR_CHECKING = "Checking this deployment as Slack and Decipher see it…";

/** To someone who is neither the bot's admin nor a workspace admin or owner. */
export const DOCTOR_REFUSAL =
  "Only the bot's admins and the workspace's admins and owners can run the doctor: it shows how this deployment is set up. Ask one of them.";

/** The doctor's lines (src/messages/doctor-lines.ts) as `npm run doctor` prints them, in Slack. */
export function doctorMessage(lines: readonly DoctorLine[]): SlackMessage {
  const shown = lines.map(
    (l) =>
      `${l.ok ? "✅" : "❌"} *${escapeMrkdwn(l.check)}*: ${escapeMrkdwn(l.text)}${
        !l.ok && l.fix ? `\n      ↳ ${escapeMrkdwn(l.fix)}` : ""
      }`,
  );
  const verdict = doctorVerdict(lines);
  return fitMessage({
    text: `The doctor: ${verdict}`,
    blocks: [...packLines(shown, 40, (n) => `…and ${n} more lines`), context(verdict)],
  });
}
