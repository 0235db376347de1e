// The .attn language: masks, score modifiers, helper functions and kernels.
// docs/language.md is the reference for this grammar; keep the two in step.
grammar Attn;

// Comment tokens are made by the lexer's nextToken (see below), not by a rule.
tokens { LINE_COMMENT }

@lexer::members {
  // `//` is floor division after an operand on the same line, and a comment everywhere else
  // (always at the start of a line). A rule cannot tell the two apart, so nextToken() does:
  // when FLOORDIV is lexed where a comment is allowed, the rest of the line becomes one
  // LINE_COMMENT token on the comment channel (2). No semantic predicates: they would disable
  // the lexer's DFA cache.
  size_t lastSignificant_ = 0;
  bool atLineStart_ = true;

  // The type of the tokens{} entry LINE_COMMENT, which ANTLR declares in the parser only: the next
  // number after the last lexer rule (frontend/Parse.cpp checks this).
  static constexpr size_t kLineComment = BAD_CHAR + 1;

  bool commentAllowed() const {
    if (atLineStart_) return true;
    switch (lastSignificant_) {
      case ID: case SCORE: case INT: case FLOAT: case RPAREN: case RBRACK: case TRUE: case FALSE: case INF:
        return false;
      default:
        return true;
    }
  }

  std::unique_ptr<antlr4::Token> nextToken() override {
    auto token = antlr4::Lexer::nextToken();
    if (token->getType() == FLOORDIV && commentAllowed()) {
      auto* sim = getInterpreter<antlr4::atn::LexerATNSimulator>();
      for (size_t c = _input->LA(1); c != antlr4::Token::EOF && c != '\n' && c != '\r'; c = _input->LA(1))
        sim->consume(_input);
      size_t start = token->getStartIndex(), stop = _input->index() - 1;
      auto comment = std::make_unique<antlr4::CommonToken>(
          std::make_pair(static_cast<antlr4::TokenSource*>(this), _input), kLineComment, 2, start, stop);
      comment->setLine(token->getLine());
      comment->setCharPositionInLine(token->getCharPositionInLine());
      comment->setText(_input->getText(antlr4::misc::Interval(start, stop)));
      return comment;
    }
    if (token->getType() == WS) {
      if (token->getText().find('\n') != std::string::npos) atLineStart_ = true;
    } else if (token->getChannel() == antlr4::Token::DEFAULT_CHANNEL) {
      lastSignificant_ = token->getType();
      atLineStart_ = false;
    }
    return token;
  }
}

// ---------------------------------------------------------------------------------------------
// Parser

file      : item* EOF ;
item      : importDecl | definition | kernelDecl ;

importDecl : IMPORT (dottedName | STRING) SEMI ;
dottedName : ID (DOT ID)* ;

definition
  : kind=(MASK | SCORE) name=ID paramList? ASSIGN expr SEMI        # MaskOrScoreDef
  | FN name=ID paramList ARROW (type | tupleType) ASSIGN expr SEMI  # FnDef
  ;

// The result of a function that returns a fixed number of values: `-> (int, int)`.
tupleType : LPAREN type (COMMA type)+ RPAREN ;

paramList : LPAREN (param (COMMA param)*)? RPAREN ;
param     : name=ID COLON type ;

type
  : name=(INT_T | FLOAT_T | BOOL_T | MASK | SCORE)                               # ScalarType
  | TENSOR LT elem=(I32_T | F32_T | BOOL_T) GT LBRACK dim (COMMA dim)* RBRACK      # TensorType
  ;
dim : ID | INT ;

kernelDecl : KERNEL name=ID paramList? LBRACE kernelItem* RBRACE ;
kernelItem : key=(ID | MASK | SCORE) ASSIGN (expr | listValue) SEMI ;
listValue  : LBRACK expr (COMMA expr)* RBRACK ;

// Alternatives are listed from the tightest-binding to the loosest (ANTLR gives earlier
// alternatives of a left-recursive rule the higher precedence).
expr
  : expr LPAREN (arg (COMMA arg)*)? RPAREN                           # CallExpr
  | expr LBRACK expr (COMMA expr)* RBRACK                            # IndexExpr
  // A bounded reduction `sum(j < n: e)`: `op` is sum, any, all, max or min (checked by the parser).
  | op=ID LPAREN var=ID LT expr COLON expr RPAREN                    # ReduceExpr
  // `(e)`, or with commas the values of an fn that returns several: `(p % w, p // w)`.
  | LPAREN expr (COMMA expr)* RPAREN                                 # ParenExpr
  | INT                                                              # IntLit
  | FLOAT                                                            # FloatLit
  | (TRUE | FALSE)                                                   # BoolLit
  | INF                                                              # InfLit
  | name=(ID | SCORE | INT_T | FLOAT_T | F32_T)                      # NameExpr
  | op=(MINUS | NOT | TILDE) expr                                    # UnaryExpr
  | expr op=(STAR | SLASH | FLOORDIV | PERCENT) expr                 # MulExpr
  | expr op=(PLUS | MINUS) expr                                      # AddExpr
  // Integer bit operators, with Python's precedence: shifts, then &, then ^, then |, all
  // looser than + - and tighter than comparisons.
  | expr op=(SHL | SHR) expr                                         # ShiftExpr
  | expr AMP expr                                                    # BitAndExpr
  | expr CARET expr                                                  # BitXorExpr
  | expr BAR expr                                                    # BitOrExpr
  | expr op=(EQ | NE | LT | LE | GT | GE) expr                       # CmpExpr
  | expr ANDAND expr                                                 # AndExpr
  | expr OROR expr                                                   # OrExpr
  | <assoc=right> expr QUESTION expr COLON expr                      # CondExpr
  | expr PIPE expr                                                   # PipeExpr
  | LET binding (COMMA binding)* SEMI expr                           # LetExpr
  ;

// `x = e`, or `(x, y) = f(...)` to bind the values of a function that returns several.
binding : (name=ID | LPAREN names+=ID (COMMA names+=ID)+ RPAREN) ASSIGN expr ;
arg     : (name=(ID | SCORE) ASSIGN)? expr ;

// ---------------------------------------------------------------------------------------------
// Lexer

IMPORT  : 'import' ;
MASK    : 'mask' ;
SCORE   : 'score' ;
FN      : 'fn' ;
KERNEL  : 'kernel' ;
LET     : 'let' ;
TENSOR  : 'tensor' ;
INT_T   : 'int' ;
FLOAT_T : 'float' ;
BOOL_T  : 'bool' ;
I32_T   : 'i32' ;
F32_T   : 'f32' ;
TRUE    : 'true' ;
FALSE   : 'false' ;
INF     : 'inf' ;

BLOCK_COMMENT: '/*' .*? '*/' -> channel(2) ;

FLOORDIV : '//' ;
PIPE     : '|>' ;
OROR     : '||' ;
ANDAND   : '&&' ;
ARROW    : '->' ;
SHL      : '<<' ;
SHR      : '>>' ;
EQ       : '==' ;
NE       : '!=' ;
LE       : '<=' ;
GE       : '>=' ;
LT       : '<' ;
GT       : '>' ;
ASSIGN   : '=' ;
PLUS     : '+' ;
MINUS    : '-' ;
STAR     : '*' ;
SLASH    : '/' ;
PERCENT  : '%' ;
NOT      : '!' ;
TILDE    : '~' ;
AMP      : '&' ;
BAR      : '|' ;
CARET    : '^' ;
QUESTION : '?' ;
COLON    : ':' ;
SEMI     : ';' ;
COMMA    : ',' ;
DOT      : '.' ;
LPAREN   : '(' ;
RPAREN   : ')' ;
LBRACK   : '[' ;
RBRACK   : ']' ;
LBRACE   : '{' ;
RBRACE   : '}' ;

FLOAT  : DIGITS '.' DIGITS EXPONENT? | DIGITS EXPONENT ;
// A hex literal is the 32-bit pattern it spells: 0x80000000 to 0xFFFFFFFF are negative ints.
INT    : DIGITS | '0' [xX] HEXDIGITS ;
STRING : '"' (~["\\\r\n] | '\\' .)* '"' ;
ID     : [a-zA-Z_] [a-zA-Z_0-9]* ;

fragment DIGITS   : [0-9] ('_'? [0-9])* ;
fragment HEXDIGITS : [0-9a-fA-F] ('_'? [0-9a-fA-F])* ;
fragment EXPONENT : [eE] [+-]? [0-9]+ ;

WS : [ \t\r\n]+ -> channel(HIDDEN) ;
// Anything else is one bad character; the parser reports it with its location.
BAD_CHAR : . ;
