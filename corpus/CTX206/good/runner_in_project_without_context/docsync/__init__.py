# expect: none
