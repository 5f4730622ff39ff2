package io.herald.command.publishing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.axonframework.eventhandling.ErrorContext;
import org.axonframework.eventhandling.GenericEventMessage;
import org.junit.jupiter.api.Test;

class DispatcherErrorHandlerTest {

    @Test
    void aFailedBatchIsRetriedNeverSkippedAndItsRetryIsSplit() {
        DispatcherErrorHandler handler = new DispatcherErrorHandler();
        assertThat(handler.splitting()).isFalse();
        ErrorContext failed = new ErrorContext("publication-dispatcher", new IllegalStateException("conflict"),
                List.of(GenericEventMessage.asEventMessage("event")));

        assertThatThrownBy(() -> handler.handleError(failed)).hasMessageContaining("conflict");
        assertThat(handler.splitting()).isTrue();
        handler.splitBatchCommitted();
        assertThat(handler.splitting()).isFalse();
    }
}
