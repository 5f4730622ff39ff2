package io.herald.query.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.herald.platform.projection.StoredEventRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/**
 * A rebuild of the live verifier checks each stream from the events it reads, keeping each
 * stream's reading between pages, and reads a stream from the store again only once its reading
 * was let go.
 */
class LiveRuleVerifierRebuildTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REQUESTED = "io.herald.contracts.publication.PublicationRequestedEvent";
    private static final String NEXT = "io.herald.contracts.publication.PublicationNextStepDueEvent";

    private final RuleVerification verification = mock(RuleVerification.class);
    private long position;

    LiveRuleVerifierRebuildTest() {
        when(verification.storedEvent(anyLong(), anyString(), anyLong(), anyString(), any(), any(), any()))
                .thenAnswer(call -> {
                    try {
                        return new StoredEvent(call.getArgument(0), call.getArgument(1), call.getArgument(2),
                                EventStoreReader.simpleName(call.getArgument(3)), call.getArgument(4),
                                call.getArgument(5), JSON.readTree((byte[]) call.getArgument(6)),
                                MissingNode.getInstance());
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
    }

    @Test
    void aStreamOnSeveralPagesIsStoredOnceFromItsEventsUnlessItsReadingWasLetGo() {
        LiveRuleVerifier.RebuildPass pass = new LiveRuleVerifier.RebuildPass(verification, 2);

        pass.page(List.of(row("pub_a", 0), row("pub_b", 0), row("chan_x", 0, "ChannelConnection"), row("pub_c", 0)));
        // pub_a's reading was let go when pub_c's began (two are kept): its verdict so far is stored
        assertThat(pass.kept()).isEqualTo(2);
        pass.page(List.of(row("pub_a", 1), row("pub_b", 1), row("pub_c", 1), row("pub_a", 2)));
        pass.finish();

        @SuppressWarnings("unchecked")
        ArgumentCaptor<List<StreamVerdict>> verdicts = ArgumentCaptor.forClass(List.class);
        @SuppressWarnings("unchecked")
        ArgumentCaptor<Collection<String>> reread = ArgumentCaptor.forClass(Collection.class);
        verify(verification, times(3)).save(verdicts.capture(), reread.capture());
        assertThat(described(verdicts.getAllValues().get(0))).containsExactly("pub_a@0");
        assertThat(reread.getAllValues().get(0)).isEmpty();
        // a later event of pub_a: its stream is read from the store again, as the live processor reads it
        assertThat(verdicts.getAllValues().get(1)).isEmpty();
        assertThat(reread.getAllValues().get(1)).containsExactly("pub_a");
        // the others once, after the last page, on the whole stream
        assertThat(described(verdicts.getAllValues().get(2))).containsExactly("pub_b@1", "pub_c@1");
        assertThat(reread.getAllValues().get(2)).isEmpty();
        assertThat(verdicts.getAllValues().get(2).get(0).workspaceId()).isEqualTo("ws_1");
        assertThat(pass.kept()).isZero();
    }

    private static List<String> described(List<StreamVerdict> verdicts) {
        List<String> described = new ArrayList<>();
        verdicts.forEach(v -> described.add(v.publicationId() + "@" + v.lastSequence()));
        return described;
    }

    private StoredEventRow row(String aggregate, long sequence) {
        return row(aggregate, sequence, "Publication");
    }

    private StoredEventRow row(String aggregate, long sequence, String type) {
        String payload = "{\"workspaceId\":\"ws_1\",\"publicationId\":\"" + aggregate + "\"}";
        return new StoredEventRow(++position, type, aggregate, sequence, "2026-12-01T09:00:00.000Z",
                sequence == 0 ? REQUESTED : NEXT, null, payload.getBytes(StandardCharsets.UTF_8));
    }
}
