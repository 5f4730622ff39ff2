package io.herald.contracts.publication;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.herald.contracts.media.MediaId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A step kind: one kind of provider write of a publication, classified before it is built. It
 * carries its own rules — what may be done twice ({@link StepClass}), whether it is read back
 * before it is sent again, where it stands beside the post ({@link StepRole}) and how people read
 * its name — so that the aggregate, the timer sweep, the projection and the console ask the kind
 * instead of testing for one by name.
 *
 * <p>The core kinds are the constants below. A channel plug-in declares its own with
 * {@link #declare} (a {@code static final} field of its package, listed by its
 * {@code ChannelPlugin.stepKinds}), and they are then found by their wire name like the core ones.
 * There is one instance per wire name, so kinds compare with {@code ==}. On the wire and in stored
 * events a kind is its wire name; the constant names of the enum this class replaced are read too.
 */
public final class PublicationStep {

    private static final Map<String, PublicationStep> BY_WIRE_NAME = new ConcurrentHashMap<>();

    /** An image uploaded for the post; an upload no post uses is invisible, so it is repeated freely. */
    public static final PublicationStep UPLOAD_MEDIA =
            declare("upload_media", StepClass.REPEATABLE, false, StepRole.PREPARES_POST, "upload media");
    public static final PublicationStep CREATE_POST =
            declare("create_post", StepClass.ONCE_ONLY, true, StepRole.MAKES_POST, "create post");
    /** A second comment is visible: once only, and the post stays SUCCEEDED whatever becomes of it. */
    public static final PublicationStep FIRST_COMMENT =
            declare("first_comment", StepClass.ONCE_ONLY, true, StepRole.FOLLOWS_POST, "first comment");
    public static final PublicationStep UPDATE_POST =
            declare("update_post", StepClass.CONVERGING, true, StepRole.MAKES_POST, "update post");
    public static final PublicationStep DELETE_POST =
            declare("delete_post", StepClass.CONVERGING, true, StepRole.MAKES_POST, "delete post");

    private final String wireName;
    private final StepClass stepClass;
    private final boolean readsBackBeforeResend;
    private final StepRole role;
    private final String label;
    private final StepScope scope;

    private PublicationStep(String wireName, StepClass stepClass, boolean readsBackBeforeResend, StepRole role,
                            StepScope scope, String label) {
        this.wireName = wireName;
        this.stepClass = stepClass;
        this.readsBackBeforeResend = readsBackBeforeResend;
        this.role = role;
        this.scope = scope;
        this.label = label;
    }

    /**
     * Declares a step kind, or returns the one already declared under {@code wireName} with the same
     * rules (so a plug-in's constants may be initialised more than once, in tests say).
     *
     * @param wireName              its name in the API, the view and stored events: lower case, {@code _}
     * @param readsBackBeforeResend after an unknown outcome, the provider is read before it is sent again
     *                              (where the connection's credentials allow; else an operator decides)
     * @param label                 how the view and the console name it ("first comment")
     * @throws IllegalStateException when the name is taken by a kind with other rules
     */
    public static PublicationStep declare(String wireName, StepClass stepClass, boolean readsBackBeforeResend,
                                          StepRole role, String label) {
        return declare(wireName, stepClass, readsBackBeforeResend, role, StepScope.PER_IMAGE, label);
    }

    /**
     * Declares a step kind with its scope: a step that prepares the post {@link StepScope#PER_POST
     * once for the post} (a container to create, then publish) rather than once per image.
     *
     * @see #declare(String, StepClass, boolean, StepRole, String)
     */
    public static PublicationStep declare(String wireName, StepClass stepClass, boolean readsBackBeforeResend,
                                          StepRole role, StepScope scope, String label) {
        Objects.requireNonNull(stepClass, "stepClass");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(label, "label");
        if (wireName == null || !wireName.matches("[a-z][a-z0-9_]{0,63}")) {
            throw new IllegalArgumentException("a step kind's wire name is lower case with underscores: " + wireName);
        }
        PublicationStep wanted = new PublicationStep(wireName, stepClass, readsBackBeforeResend, role, scope, label);
        PublicationStep kind = BY_WIRE_NAME.computeIfAbsent(wireName, name -> wanted);
        if (!kind.sameRules(wanted)) {
            throw new IllegalStateException("step kind " + wireName + " is already declared with other rules");
        }
        return kind;
    }

    /** Every kind declared so far: the core ones and those of the plug-ins loaded. */
    public static Collection<PublicationStep> declared() {
        return List.copyOf(BY_WIRE_NAME.values());
    }

    /** The step that makes or changes the entry's post for this action, among the core kinds. */
    public static PublicationStep postStepOf(PublicationAction action) {
        return switch (action.wireName()) {
            case "update" -> UPDATE_POST;
            case "delete" -> DELETE_POST;
            default -> CREATE_POST;
        };
    }

    /**
     * The core kinds for an action, as Herald planned every request before channels named their own:
     * uploads, the post step, and for a publish its first comment.
     */
    public static List<PublicationStep> coreKinds(PublicationAction action) {
        return switch (action) {
            case PUBLISH -> List.of(UPLOAD_MEDIA, CREATE_POST, FIRST_COMMENT);
            case DRAFT -> List.of(UPLOAD_MEDIA, CREATE_POST);
            case UPDATE -> List.of(UPLOAD_MEDIA, UPDATE_POST);
            case DELETE -> List.of(DELETE_POST);
        };
    }

    /**
     * The steps a request plans, in order, from the kinds its channel carries out for the action
     * ({@code kinds}; null: {@link #coreKinds}): a step before the post for each image (none for a
     * delete), or one for the whole post where that kind is {@link StepScope#PER_POST} (even without
     * images: a text post needs its container too), the post step, then the step after the post where the content has a first comment (a
     * publish). Where the channel names no kind for a place the request needs, the core kind stands
     * there, so that a check against the channel's kinds finds it missing.
     */
    public static List<Planned> plan(PublicationAction action, Content content, List<PublicationStep> kinds) {
        List<PublicationStep> offered = kinds == null ? coreKinds(action) : kinds;
        List<Planned> steps = new ArrayList<>();
        if (action != PublicationAction.DELETE && content != null) {
            PublicationStep before = first(offered, StepRole.PREPARES_POST, UPLOAD_MEDIA);
            if (before.preparesOncePerPost()) {
                steps.add(new Planned(before, null, "content"));
            } else {
                content.media().forEach(image -> steps.add(new Planned(before, image.mediaId(), "content.media")));
            }
        }
        steps.add(new Planned(first(offered, StepRole.MAKES_POST, postStepOf(action)), null, "action"));
        if (action == PublicationAction.PUBLISH && content != null && content.firstComment() != null) {
            steps.add(new Planned(first(offered, StepRole.FOLLOWS_POST, FIRST_COMMENT), null,
                    "content.firstComment"));
        }
        return List.copyOf(steps);
    }

    private static PublicationStep first(List<PublicationStep> kinds, StepRole role, PublicationStep otherwise) {
        return kinds.stream().filter(k -> k.role == role).findFirst().orElse(otherwise);
    }

    /**
     * One step of a plan.
     *
     * @param mediaId for an upload: its image; null for a step that prepares the whole post
     * @param field   the request field that asks for it, for a refusal to name
     */
    public record Planned(PublicationStep kind, MediaId mediaId, String field) {
    }

    /** An attempt's step; null in attempts recorded without one means the action's post step. */
    public static PublicationStep orPostStep(PublicationStep step, PublicationAction action) {
        return step != null ? step : postStepOf(action);
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /**
     * The kind of a wire name; also the constant name a stored enum may have written
     * ({@code FIRST_COMMENT}).
     *
     * @throws IllegalArgumentException for a name no kind was declared under
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static PublicationStep fromWireName(String name) {
        if (name == null) {
            return null;
        }
        PublicationStep kind = BY_WIRE_NAME.get(name);
        if (kind == null) {
            kind = BY_WIRE_NAME.get(name.toLowerCase(Locale.ROOT));
        }
        if (kind == null) {
            throw new IllegalArgumentException("unknown step: " + name);
        }
        return kind;
    }

    public StepClass stepClass() {
        return stepClass;
    }

    public StepRole role() {
        return role;
    }

    /** After an unknown outcome, read the provider before sending it again. */
    public boolean readsBackBeforeResend() {
        return readsBackBeforeResend;
    }

    /** How the view and the console name it. */
    public String label() {
        return label;
    }

    public boolean isRepeatable() {
        return stepClass == StepClass.REPEATABLE;
    }

    public boolean isOnceOnly() {
        return stepClass == StepClass.ONCE_ONLY;
    }

    public boolean converges() {
        return stepClass == StepClass.CONVERGING;
    }

    /** Comes before the post: its success makes the next step due, and the publication stays in progress. */
    public boolean preparesPost() {
        return role == StepRole.PREPARES_POST;
    }

    public StepScope scope() {
        return scope;
    }

    /**
     * Prepares the post once, not once per image ({@link StepScope#PER_POST}): its success records
     * what it prepared (a container), and the post step receives that reference.
     */
    public boolean preparesOncePerPost() {
        return role == StepRole.PREPARES_POST && scope == StepScope.PER_POST;
    }

    /** Is the post itself: the publication's status follows it. */
    public boolean makesPost() {
        return role == StepRole.MAKES_POST;
    }

    /** Comes after the post: the post stays SUCCEEDED, and a decision is this step's own. */
    public boolean followsPost() {
        return role == StepRole.FOLLOWS_POST;
    }

    /** Whether the publication's status rests on it: every step but one that follows the post. */
    public boolean outcomeRestsOnIt() {
        return role != StepRole.FOLLOWS_POST;
    }

    private boolean sameRules(PublicationStep other) {
        return stepClass == other.stepClass && readsBackBeforeResend == other.readsBackBeforeResend
                && role == other.role && scope == other.scope && label.equals(other.label);
    }

    @Override
    public String toString() {
        return wireName;
    }
}
