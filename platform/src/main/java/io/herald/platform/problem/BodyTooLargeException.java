package io.herald.platform.problem;

import java.io.IOException;

/** A request body ran past its limit while it was read; answered 413 with this message as the detail. */
public class BodyTooLargeException extends IOException {

    public BodyTooLargeException(String detail) {
        super(detail);
    }
}
