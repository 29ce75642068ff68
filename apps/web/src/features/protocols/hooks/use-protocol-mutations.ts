import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type CreateProtocolBody, type Protocol, protocolKeys, protocolsApi, type UpdateProtocolBody } from '../api';

/** Saves a new protocol (version 1); the lists refresh. The caller says what success shows (a toast with a link). */
export function useCreateProtocol(projectUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProtocolBody) => protocolsApi.create(projectUuid, body),
    onSuccess: (protocol) => {
      queryClient.setQueryData(protocolKeys.detail(projectUuid, protocol.protocol_uuid, null), protocol);
      void queryClient.invalidateQueries({ queryKey: protocolKeys.lists() });
    },
  });
}

/** A new version of the protocol; its page shows it at once. */
export function useUpdateProtocol(projectUuid: string, protocolUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProtocolBody) => protocolsApi.update(projectUuid, protocolUuid, body),
    onSuccess: (protocol: Protocol) => {
      const key = protocolKeys.detail(projectUuid, protocolUuid, null);
      const before = queryClient.getQueryData<Protocol>(key)?.current_version;
      queryClient.setQueryData(key, protocol);
      void queryClient.invalidateQueries({ queryKey: protocolKeys.lists() });
      // A PATCH that changes nothing makes no version (ADR 031).
      toast.success(
        before === protocol.current_version
          ? 'Nothing changed, so no new version was made'
          : `Saved as version ${protocol.current_version}`,
      );
    },
  });
}

/** Deletes the protocol; the runs made from it keep it recorded. */
export function useDeleteProtocol(projectUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (protocol: Pick<Protocol, 'protocol_uuid' | 'name'>) =>
      protocolsApi.destroy(projectUuid, protocol.protocol_uuid),
    onSuccess: (_data, protocol) => {
      queryClient.removeQueries({ queryKey: [...protocolKeys.details(), projectUuid, protocol.protocol_uuid] });
      void queryClient.invalidateQueries({ queryKey: protocolKeys.lists() });
      toast.success(`Protocol “${protocol.name}” deleted; its runs are kept`);
    },
  });
}
