/*
 * language.c — which language a file is in, as one name: the fence tag the
 * prompt shows and the grammar the drafter parses with. The drafter's
 * tables decide (drafter.h), so the two can never disagree; an id they do
 * not know is still a fine fence tag.
 */
#include "../drafter/drafter.h"
#include "edit.h"

const char *edit_language(const char *language, const char *path) {
    if (language && *language) {
        const char *grammar = drf_language_for_id(language);
        return grammar ? grammar : language;
    }
    return path && *path ? drf_language_for_path(path) : NULL;
}
