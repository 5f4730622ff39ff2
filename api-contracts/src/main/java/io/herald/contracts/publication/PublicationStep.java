package io.herald.contracts.publication;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/**
 * One provider write of a publication, classified before it is built (DESIGN.md "Steps"): an
 * upload may be repeated, a post and a comment happen at most once, an edit or delete converges.
 */
public enum PublicationStep {
    UPLOAD_MEDIA("upload_media"),
    CREATE_POST("create_post"),
    FIRST_COMMENT("first_comment"),
    UPDATE_POST("update_post"),
    DELETE_POST("delete_post");

    private final String wireName;

    PublicationStep(String wireName) {
        this.wireName = wireName;
    }

    /** The step that makes or changes the entry's post for this action. */
    public static PublicationStep postStepOf(PublicationAction action) {
        return switch (action.wireName()) {
            case "update" -> UPDATE_POST;
            case "delete" -> DELETE_POST;
            default -> CREATE_POST;
        };
    }

    /** An attempt's step; null in attempts recorded without one means the action's post step. */
    public static PublicationStep orPostStep(PublicationStep step, PublicationAction action) {
        return step != null ? step : postStepOf(action);
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static PublicationStep fromWireName(String name) {
        return Arrays.stream(values())
                .filter(s -> s.wireName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown step: " + name));
    }
}
