package io.rocket.apps.phylogenetics;

import io.rocket.core.ItemTooLargeException;

/**
 * One proteome does not fit the buffers the run sized before it started ({@link SlotSizes}): its parsed form is
 * larger than the staging buffer, or its composition vector larger than a cache slot. The message names the file,
 * the sizes, and the option and value that would make it fit; the item fails alone and the run goes on, and a result
 * store does not keep the failure, so a rerun with that option computes its pairs.
 */
public class SlotTooSmallException extends ItemTooLargeException {

    private static final long serialVersionUID = 1L;

    public SlotTooSmallException(String message, Throwable cause) {
        super(message, cause);
    }
}
