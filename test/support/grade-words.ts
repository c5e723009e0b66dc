/** Words that would read as a score, a grade or advice about a business (assessments say none). */
export const GRADE_WORDS = /\b(good|bad|poor|weak|strong|risky?|safe|unsafe|score[sd]?|grade[sd]?|rating|rated|recommend\w*|healthy|excellent|worse|better|pass(ed)?|fail(ed)?)\b/i;
