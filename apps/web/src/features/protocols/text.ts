/** Words and places the protocol pages share. */

/** The delete confirmation: what goes, and what stays (ADR 031: runs keep the protocol and version they used). */
export const deleteProtocolWarning = (name: string) =>
  `“${name}” leaves the list and its name is free again. Its runs are kept, and still say which protocol and version they used.`;

/** Where a batch is set up from a protocol. */
export const newBatchPath = (projectUuid: string, protocolUuid: string) =>
  `/projects/${projectUuid}/batches/new?protocol=${protocolUuid}`;
