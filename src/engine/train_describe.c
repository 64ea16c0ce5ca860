/* What the model is trained on, written into the model file (metadata "corpus") so
 * that the lab and `attend` can state the model's scope from the file itself. */
#include "engine/train.h"

#include <cjson/cJSON.h>

char *at_corpus_describe(const at_corpus *c)
{
    cJSON *j = cJSON_CreateObject(), *frames = cJSON_CreateArray();
    size_t sentences = 0;
    for (size_t i = 0; i < c->n; i++)
        sentences += c->ex[i].split == AT_SPLIT_TRAIN && c->ex[i].kind == AT_EX_PRONOUN;
    if (!j || !frames) {
        cJSON_Delete(j);
        cJSON_Delete(frames);
        return NULL;
    }
    cJSON_AddNumberToObject(j, "sentences", (double)sentences);
    cJSON *pron = cJSON_CreateArray();
    for (size_t i = 0; pron && i < c->n_pronouns; i++)
        cJSON_AddItemToArray(pron, cJSON_CreateString(c->pronouns[i]));
    cJSON_AddItemToObject(j, "pronouns", pron);
    cJSON_AddItemToObject(j, "frames", frames);
    for (size_t i = 0; i < c->n_frames; i++) {
        const at_frame_info *f = &c->frames[i];
        cJSON *o = cJSON_CreateObject();
        if (!o)
            break;
        cJSON_AddStringToObject(o, "id", f->id);
        cJSON_AddStringToObject(o, "lang", f->lang);
        cJSON_AddStringToObject(o, "pattern", f->pattern);
        cJSON_AddStringToObject(o, "pronoun", f->pronoun);
        if (f->example != AT_NO_INDEX)
            cJSON_AddStringToObject(o, "example", c->ex[f->example].text);
        cJSON_AddNumberToObject(o, "sentences", (double)f->n_train);
        cJSON_AddBoolToObject(o, "held_out_frame", f->held_out_frame);
        cJSON_AddItemToArray(frames, o);
    }
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return s;
}
