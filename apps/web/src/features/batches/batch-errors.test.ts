import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { batchErrors } from './batch-errors';

const refused = (errors: unknown) => new ApiError(400, { errors }, 'POST', '/api/projects/p/batches/');

describe('a refused batch’s messages', () => {
  it('go to the videos’ choice, to each video, or under the form', () => {
    expect(
      batchErrors(
        refused({
          group: ['No subject of the group "sham" has a ready video.'],
          'videos.v1.parameters.rois': ['M1 / Day 1: ROI 1 leaves the picture.'],
          'videos.v1.parameters.threshold': ['M1 / Day 1: Must be between 0 and 255.'],
          'overrides.v2.geometry.scale': ['Must be more than 0.'],
          protocol_uuid: ['No protocol of this project has that id.'],
          protocol_version: ['Too high.'],
        }),
      ),
    ).toEqual({
      scope: ['No subject of the group "sham" has a ready video.'],
      byVideo: {
        v1: ['M1 / Day 1: ROI 1 leaves the picture.', 'M1 / Day 1: Must be between 0 and 255.'],
        v2: ['geometry.scale: Must be more than 0.'],
      },
      other: ['No protocol of this project has that id.', 'protocol_version: Too high.'],
    });
  });

  it('keep a plain message, and ignore what is not an answer of the server', () => {
    expect(batchErrors(refused('The project is locked.'))).toEqual({
      scope: [],
      byVideo: {},
      other: ['The project is locked.'],
    });
    expect(batchErrors(new Error('offline'))).toEqual({ scope: [], byVideo: {}, other: [] });
  });
});
