package io.herald.query.publication;

import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationView;
import io.herald.contracts.publication.PublicationView.Step;
import io.herald.contracts.publication.PublicationView.StepStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code steps} of a publication's view: planned from its request (one upload per image, the
 * post step, the first comment where asked) and moved by each attempt's events, found by the
 * attempt's number. Rows written before steps existed get their single step derived from the post.
 */
final class StepViews {

    private StepViews() {
    }

    static List<Step> planned(PublicationAction action, Content content, List<PublicationStep> kinds) {
        return new ArrayList<>(Step.planned(action, content, kinds));
    }

    /** The single post step of a view stored without steps, as its status and attempts say. */
    static List<Step> derived(PublicationView view) {
        StepStatus status = switch (view.status()) {
            case SUCCEEDED -> StepStatus.SUCCEEDED;
            case FAILED -> StepStatus.FAILED;
            case OUTCOME_UNKNOWN -> StepStatus.OUTCOME_UNKNOWN;
            case ABANDONED -> StepStatus.SKIPPED;
            default -> StepStatus.PENDING;
        };
        List<Integer> attemptNos = view.attempts().stream().map(PublicationView.Attempt::attemptNo).toList();
        return List.of(new Step(PublicationStep.postStepOf(view.action()), null, status, view.providerRef(),
                attemptNos.size(), view.decisionReason(), attemptNos));
    }

    private static Step pending(PublicationStep step, MediaId mediaId) {
        return new Step(step, mediaId, StepStatus.PENDING, null, 0, null, List.of());
    }

    /** The step attempt {@code attemptNo} made; the post step when no step names it. */
    static PublicationStep stepOf(PublicationViewDraft d, int attemptNo) {
        for (Step step : d.steps) {
            if (step.attemptNos().contains(attemptNo)) {
                return step.step();
            }
        }
        return PublicationStep.postStepOf(d.action);
    }

    /** Records that attempt {@code attemptNo} is this step's (an upload's by its image). */
    static void attempted(PublicationViewDraft d, PublicationStep step, MediaId mediaId, int attemptNo) {
        int index = indexOf(d, step, mediaId);
        if (index < 0) {
            d.steps.add(pending(step, mediaId));
            index = d.steps.size() - 1;
        }
        Step s = d.steps.get(index);
        if (s.attemptNos().contains(attemptNo)) {
            return;
        }
        List<Integer> nos = new ArrayList<>(s.attemptNos());
        nos.add(attemptNo);
        d.steps.set(index, new Step(s.step(), s.mediaId(), StepStatus.PENDING, s.providerRef(), nos.size(), null,
                nos));
    }

    /** Sets where the step of attempt {@code attemptNo} stands. */
    static void settle(PublicationViewDraft d, int attemptNo, StepStatus status, ProviderRef ref, String detail) {
        for (int i = 0; i < d.steps.size(); i++) {
            Step s = d.steps.get(i);
            if (s.attemptNos().contains(attemptNo)) {
                d.steps.set(i, new Step(s.step(), s.mediaId(), status, ref != null ? ref : s.providerRef(),
                        s.attempts(), detail, s.attemptNos()));
                return;
            }
        }
    }

    /** Sets a step by its kind (for events that name the step, not an attempt). */
    static void settle(PublicationViewDraft d, PublicationStep step, StepStatus status, String detail) {
        int index = indexOf(d, step, null);
        if (index >= 0) {
            Step s = d.steps.get(index);
            d.steps.set(index, new Step(s.step(), s.mediaId(), status, s.providerRef(), s.attempts(), detail,
                    s.attemptNos()));
        }
    }

    /** Steps that never ended are skipped when the publication ends without them. */
    static void skipUnfinished(PublicationViewDraft d) {
        for (int i = 0; i < d.steps.size(); i++) {
            Step s = d.steps.get(i);
            if (s.status() == StepStatus.PENDING) {
                d.steps.set(i, new Step(s.step(), s.mediaId(), StepStatus.SKIPPED, s.providerRef(), s.attempts(),
                        s.detail(), s.attemptNos()));
            }
        }
    }

    private static int indexOf(PublicationViewDraft d, PublicationStep step, MediaId mediaId) {
        for (int i = 0; i < d.steps.size(); i++) {
            Step s = d.steps.get(i);
            // a step with an image (an upload) is the one of that image
            if (s.step() == step && (mediaId == null || Objects.equals(s.mediaId(), mediaId))) {
                return i;
            }
        }
        return -1;
    }
}
